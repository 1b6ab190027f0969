/*
 * address-space.ts: the statements of the page-fault subsystem (wasm-core/src/fault/ops.def):
 * `thread`, `mmap`, `munmap`, `mprotect` and `touch`, as the parser reads them, the printer
 * writes them and the compiler turns them into op records. Addresses are page numbers inside one
 * process's window; the limits below are the core's (wasm-core/src/fault/mm.h), and the binding
 * test applies ops at each edge to hold them together.
 */
import type { AddressSpaceStmt } from './ast';

/** FAULT_MAX_MMS: processes 0..3. */
export const MAX_MM = 3;
/** FAULT_VA_PAGES: a process's window, in pages (128 MiB). */
export const VA_PAGES = 32768;
/** The longest `work` (1 s), in ns. */
export const MAX_WORK_NS = 1000000000;
/** FAULT_MAX_TOUCH: pages one touch statement may fault. */
export const MAX_TOUCH_PAGES = 512;

/** vm_flags bits (include/linux/mm.h) and the model's file mark (fault/mm.h VMA_FILE). */
const VM_READ = 0x1;
const VM_WRITE = 0x2;
const VM_EXEC = 0x4;
const VMA_FILE = 0x80000000;

/** The statement words, in the order the docs list them. */
export const ADDRESS_SPACE_WORDS = [
  'thread',
  'mmap',
  'munmap',
  'mprotect',
  'touch',
  'work',
] as const;
export type AddressSpaceWord = (typeof ADDRESS_SPACE_WORDS)[number];

export function isAddressSpaceWord(w: string): w is AddressSpaceWord {
  return (ADDRESS_SPACE_WORDS as readonly string[]).includes(w);
}

/** Whether a prot= value is canonical: r, w, x in that order, at least one, or none. */
export function isProt(text: string): boolean {
  return text === 'none' || (/^r?w?x?$/.test(text) && text.length > 0);
}

/** A prot string's VM_READ | VM_WRITE | VM_EXEC. */
export function protFlags(prot: string): number {
  return (
    (prot.includes('r') ? VM_READ : 0) |
    (prot.includes('w') ? VM_WRITE : 0) |
    (prot.includes('x') ? VM_EXEC : 0)
  );
}

/** The canonical text of a statement (every field spelled out). */
export function printAddressSpace(s: AddressSpaceStmt): string {
  const head = `cpu ${s.cpu} ${s.kind} mm=${s.mm}`;
  switch (s.kind) {
    case 'thread':
      return head;
    case 'mmap':
      return `${head} at=${s.at} pages=${s.pages} prot=${s.prot}${s.file ? ' file' : ''}`;
    case 'munmap':
      return `${head} at=${s.at} pages=${s.pages}`;
    case 'mprotect':
      return `${head} at=${s.at} pages=${s.pages} prot=${s.prot}`;
    case 'touch':
      return `${head} at=${s.at} pages=${s.pages} ${s.write ? 'write' : 'read'}`;
    case 'work':
      return `cpu ${s.cpu} work ns=${s.pages}`;
  }
}

/** The struct sim_op fields of a statement: order = mm, gfp = flags, handle = page, arg = pages. */
export function addressSpaceFields(s: AddressSpaceStmt): {
  order: number;
  gfp: number;
  handle: number;
  arg: number;
} {
  switch (s.kind) {
    case 'thread':
      return { order: s.mm, gfp: 0, handle: 0, arg: 0 };
    case 'mmap':
      return {
        order: s.mm,
        gfp: (protFlags(s.prot) | (s.file ? VMA_FILE : 0)) >>> 0,
        handle: s.at,
        arg: s.pages,
      };
    case 'mprotect':
      return { order: s.mm, gfp: protFlags(s.prot), handle: s.at, arg: s.pages };
    case 'munmap':
      return { order: s.mm, gfp: 0, handle: s.at, arg: s.pages };
    case 'touch':
      return { order: s.mm, gfp: s.write ? 1 : 0, handle: s.at, arg: s.pages };
    case 'work':
      return { order: 0, gfp: 0, handle: 0, arg: s.pages };
  }
}

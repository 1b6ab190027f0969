/*
 * vma.h: a process's VMAs: the lookup, the list in address order, and the writer's side of the
 * two lockless schemes. A writer (holding mmap_lock for write) brackets every change of a VMA
 * the fault path reads with vma_write_begin/vma_write_end: under SPF that is the VMA's
 * vm_sequence going odd and even again (the posted series' vm_write_begin/end); with per-VMA
 * locks it is vma_start_write, which waits for the VMA's readers and marks it write-locked until
 * mmap_write_unlock; under the classic path it is nothing.
 */
#ifndef BUDDYSCOPE_FAULT_VMA_H
#define BUDDYSCOPE_FAULT_VMA_H

#include "fault/mm.h"

/* vma_lookup: the index of mm's VMA holding page, or -1. */
int vma_lookup(const struct fault_state *f, int mm, uint32_t page);

/* The first VMA of mm that starts inside [start, end), or -1. */
int vma_first_in(const struct fault_state *f, int mm, uint32_t start, uint32_t end);

/* Whether any VMA of mm overlaps [start, end). */
int vma_range_used(const struct fault_state *f, int mm, uint32_t start, uint32_t end);

/* A zeroed VMA slot for [start, end) of mm, linked in address order; -1 if none is free. */
int vma_new(struct sim *s, int mm, uint32_t start, uint32_t end, uint32_t flags);

/* Unlink a VMA from its process and free its slot (it must be write-bracketed by the caller). */
void vma_remove(struct sim *s, int vma);

/* __split_vma: vma keeps [start, at), a new VMA takes [at, end); returns it, or -1 (no slot). */
int vma_split(struct sim *s, int vma, uint32_t at, int cpu);

/* A writer is about to change vma (vm_write_begin under SPF, vma_start_write with per-VMA locks). */
void vma_write_begin(struct sim *s, int vma, int cpu);

/* The writer is done changing vma (vm_write_end under SPF; per-VMA locks end at the unlock). */
void vma_write_end(struct sim *s, int vma, int cpu);

#endif

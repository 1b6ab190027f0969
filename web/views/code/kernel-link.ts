/*
 * kernel-link.ts: where to read, on elixir, the kernel function an event names, at the kernel
 * version the profile stands for. A profile named by a version ("6.6") links to that tag; one
 * named otherwise ("2016-v5") links to the first version its kernels line gives ("4.9-rc5 with
 * the series v5"). The model has no kernel line numbers, so the link is elixir's identifier
 * search (/A/ident/), which lists the definition.
 */
import { profileRow } from '../../core/profiles';

/** The kernel tag of profile id ("v6.18"). */
export function kernelTag(profileId: number): string {
  const row = profileRow(profileId);
  if (/^\d+\.\d+$/.test(row.name)) return `v${row.name}`;
  const m = /\d+\.\d+(?:-rc\d+)?/.exec(row.kernels);
  return m ? `v${m[0]}` : 'latest';
}

/** The elixir page of kernel function `fn` at profile id's version. */
export function elixirIdentUrl(fn: string, profileId: number): string {
  return `https://elixir.bootlin.com/linux/${kernelTag(profileId)}/A/ident/${encodeURIComponent(fn)}`;
}

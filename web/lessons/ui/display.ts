/*
 * display.ts: what the views show, as a program for the app's Session (web/app/session.ts): the
 * ops of a lesson session up to a point (or the learner's sandbox ops after it), on the first
 * machine or, when comparing, on the second profile. The config is the replay's (withProfile)
 * except for the event buffer: the timeline only keeps one op's events, and every checkpoint
 * copies the buffer, so the core's default size serves it better.
 */
import type { ProfileName } from '../../core/machine-config';
import type { CompiledProgram } from '../../workload/compiler';
import { withProfile } from '../replay';
import type { PlanSession } from './plan';

export interface DisplaySpec {
  key: string; // equal keys show the same machines
  session: PlanSession;
  program: CompiledProgram;
  end: number; // ops of program to run
  windowStart: number; // where the last block's ops begin (the timeline starts its cursor there)
}

export function displayProgram(spec: DisplaySpec, which: 'a' | 'b'): CompiledProgram {
  const profile: ProfileName | null = which === 'b' ? spec.session.compare : null;
  const config = { ...withProfile(spec.program.config, profile), eventCapacity: undefined };
  const { ops, lines } = spec.program;
  return { config, ops: ops.slice(0, spec.end), lines: lines.subarray(0, spec.end) };
}

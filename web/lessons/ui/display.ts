/*
 * display.ts: what the views show, as a program for the app's Session (web/app/session.ts): the
 * ops of a lesson session up to a point (or the learner's sandbox ops after it), on the first
 * machine or, when comparing, on the second profile. The config is the replay's (withProfile)
 * except for the event buffer: the timeline only keeps one op's events, and every checkpoint
 * copies the buffer, so the core's default size serves it better.
 */
import type { ProfileName } from '../../core/machine-config';
import { readOp, type SimOp } from '../../core/ops';
import type { CompiledWorkload } from '../../workload/compiler';
import type { Program } from '../../app/compile';
import { withProfile } from '../replay';
import type { PlanSession } from './plan';

export interface DisplaySpec {
  key: string; // equal keys show the same machines
  session: PlanSession;
  program: CompiledWorkload;
  end: number; // ops of program to run
  windowStart: number; // where the last block's ops begin (the timeline starts its cursor there)
}

export function displayProgram(spec: DisplaySpec, which: 'a' | 'b'): Program {
  const profile: ProfileName | null = which === 'b' ? spec.session.compare : null;
  const config = { ...withProfile(spec.program.config, profile), eventCapacity: undefined };
  const ops: SimOp[] = [];
  for (let i = 0; i < spec.end; i++) ops.push(readOp(spec.program.ops, i));
  return { config, ops, lines: spec.program.opLines.slice(0, spec.end) };
}

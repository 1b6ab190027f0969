// A compared session follows its leader op by op, as soon as the leader moves (no render in
// between), and lets go when disposed.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { compileText } from './compile';
import { Session } from './session';

describe('Session.follow', async () => {
  const core = await loadCore();
  const program = (profile: string) => {
    const out = compileText(
      `machine tiny\nprofile ${profile}\ncpu 0 alloc a order=1\ncpu 1 alloc b order=0\ncpu 0 free a\n`,
    );
    if (!out.ok) throw new Error(out.error.message);
    return out.program;
  };

  it('keeps the follower at the leader op, within its own length', () => {
    const leader = new Session(core, program('6.18'));
    const follower = new Session(core, program('5.13'));
    leader.player.seekOp(2);
    follower.follow(leader.player);
    expect(follower.player.position.op).toBe(2);
    leader.player.stepOp(1);
    expect(follower.player.position.op).toBe(3);
    expect(follower.state().op).toBe(3);
    leader.player.home();
    expect(follower.player.position.op).toBe(0);
    follower.dispose();
    leader.player.end();
    expect(follower.player.position.op).toBe(0);
    leader.dispose();
  });
});

/*
 * definitions.ts: every command of the app, defined once: its id, the label people read, the
 * group it is listed under and the keys that run it. Components only say what a command does
 * (useAction(A.x, { run })); the help page lists this table, so it shows every command, each once,
 * whether or not the component that runs it is on screen.
 */

/** Where a command is listed on the help page; also which page it works on (see SCREENS). */
export type ActionGroup = 'lesson' | 'presenter' | 'timeline' | 'machine' | 'view' | 'app';

export interface ActionDef {
  id: string;
  label: string;
  group: ActionGroup;
  /** Key chords (see keys.ts), e.g. ["Space"], ["Shift+ArrowRight"]; none: a button only. */
  keys?: readonly string[];
  /**
   * A presentation clicker's key: it works wherever focus is (after a click on a button or the
   * memory map), except in a form field, which keeps its keys.
   */
  clicker?: boolean;
}

const DEFS = {
  // The timeline: wherever a machine is on screen (playground, lesson reading, embed).
  play: { id: 'timeline.play', label: 'Play / pause', group: 'timeline', keys: ['Space'] },
  stepOpForward: {
    id: 'timeline.step-op-forward',
    label: 'Forward one op',
    group: 'timeline',
    keys: ['ArrowRight'],
  },
  stepOpBack: {
    id: 'timeline.step-op-back',
    label: 'Back one op',
    group: 'timeline',
    keys: ['ArrowLeft'],
  },
  stepEventForward: {
    id: 'timeline.step-event-forward',
    label: 'Forward one event',
    group: 'timeline',
    keys: ['Shift+ArrowRight'],
  },
  stepEventBack: {
    id: 'timeline.step-event-back',
    label: 'Back one event',
    group: 'timeline',
    keys: ['Shift+ArrowLeft'],
  },
  home: {
    id: 'timeline.home',
    label: 'To the start (machine as booted)',
    group: 'timeline',
    keys: ['Home'],
  },
  end: { id: 'timeline.end', label: 'To the end', group: 'timeline', keys: ['End'] },
  faster: { id: 'timeline.faster', label: 'Play faster', group: 'timeline', keys: [']'] },
  slower: { id: 'timeline.slower', label: 'Play slower', group: 'timeline', keys: ['['] },
  scrub: { id: 'timeline.scrub', label: 'Scrub to an event', group: 'timeline' },
  nextMarker: {
    id: 'timeline.next-marker',
    label: 'Next marked event (refill, drain, fallback, claim, failure, bad page)',
    group: 'timeline',
    keys: ['n'],
  },
  prevMarker: {
    id: 'timeline.prev-marker',
    label: 'Previous marked event',
    group: 'timeline',
    keys: ['N'],
  },
  grain: {
    id: 'timeline.grain',
    label: 'Play by op / by event',
    group: 'timeline',
    keys: ['g'],
  },
  branch: { id: 'timeline.switch-branch', label: 'Switch branch', group: 'timeline' },

  // The playground's machine and views.
  alloc: {
    id: 'machine.alloc',
    label: 'Allocate (append to the workload)',
    group: 'machine',
    keys: ['a'],
  },
  free: {
    id: 'machine.free',
    label: 'Free the newest block of the group',
    group: 'machine',
    keys: ['f'],
  },
  drain: {
    id: 'machine.drain',
    label: "Drain this CPU's per-CPU lists",
    group: 'machine',
    keys: ['d'],
  },
  drainAll: { id: 'machine.drain-all', label: 'Drain every CPU', group: 'machine' },
  tick: {
    id: 'machine.tick',
    label: 'One vmstat interval passes',
    group: 'machine',
    keys: ['t'],
  },
  cpuOffline: { id: 'machine.cpu-offline', label: 'Take the CPU offline', group: 'machine' },
  cpuOnline: { id: 'machine.cpu-online', label: 'Bring the CPU online', group: 'machine' },
  profile: {
    id: 'machine.profile',
    label: 'Next kernel profile',
    group: 'machine',
    keys: ['p'],
  },
  runWorkload: {
    id: 'workload.run',
    label: 'Run the workload',
    group: 'machine',
    keys: ['Ctrl+Enter', 'Meta+Enter'],
  },
  compare: {
    id: 'view.compare',
    label: 'Compare with another profile',
    group: 'view',
    keys: ['c'],
  },

  // A lesson, read at your own pace.
  lessonNext: {
    id: 'lesson.next',
    label: 'Next step of the lesson',
    group: 'lesson',
    keys: ['PageDown'],
  },
  lessonPrev: {
    id: 'lesson.previous',
    label: 'Previous step of the lesson',
    group: 'lesson',
    keys: ['PageUp'],
  },
  lessonPresent: {
    id: 'lesson.present',
    label: 'Present this lesson (large type, clicker keys)',
    group: 'lesson',
    keys: ['P'],
  },

  // A lesson presented to a room, and its speaker notes window: a clicker's keys.
  presenterNext: {
    id: 'presenter.next',
    label: 'Next (reveal, run, or next step)',
    group: 'presenter',
    keys: ['PageDown', 'ArrowRight', 'Space'],
    clicker: true,
  },
  presenterPrev: {
    id: 'presenter.previous',
    label: 'Previous (beat or step)',
    group: 'presenter',
    keys: ['PageUp', 'ArrowLeft'],
    clicker: true,
  },
  presenterReveal: {
    id: 'presenter.reveal',
    label: 'Reveal the answer',
    group: 'presenter',
    keys: ['r'],
    clicker: true,
  },
  presenterBlank: {
    id: 'presenter.blank',
    label: 'Blank the screen',
    group: 'presenter',
    keys: ['b', '.'],
    clicker: true,
  },
  presenterLeave: {
    id: 'presenter.leave',
    label: 'Leave presenter mode',
    group: 'presenter',
    keys: ['Escape'],
  },
  presenterNotes: {
    id: 'presenter.notes',
    label: 'Open the speaker notes window',
    group: 'presenter',
    keys: ['s'],
  },

  // The site, on every page.
  theme: {
    id: 'app.theme',
    label: 'Switch theme (system, light, dark)',
    group: 'app',
    keys: ['T'],
  },
  help: { id: 'app.help', label: 'Show keyboard shortcuts', group: 'app', keys: ['?'] },
} as const satisfies Record<string, ActionDef>;

type Defs = typeof DEFS;

/** The id of every command, so buttons, keys, lessons and tests name them one way. */
export const A = Object.fromEntries(Object.entries(DEFS).map(([k, d]) => [k, d.id])) as {
  readonly [K in keyof Defs]: Defs[K]['id'];
};
export type ActionId = Defs[keyof Defs]['id'];

/** Every command, in the order above. */
export const ACTION_DEFS: readonly ActionDef[] = Object.values(DEFS);

const BY_ID = new Map<string, ActionDef>(ACTION_DEFS.map((d) => [d.id, d]));

/** The definition of a command. */
export function actionDef(id: ActionId): ActionDef {
  const d = BY_ID.get(id);
  if (!d) throw new Error(`unknown action ${id}`);
  return d;
}

/**
 * The groups whose keys are live together on each kind of page. A key may mean one thing per
 * page: the timeline's → steps an op while reading a lesson, and the clicker's → walks the beats
 * while presenting, where the timeline is not shown.
 */
export const SCREENS: Record<string, readonly ActionGroup[]> = {
  playground: ['app', 'timeline', 'machine', 'view'],
  embed: ['app', 'timeline'],
  lesson: ['app', 'timeline', 'lesson'],
  presenter: ['app', 'presenter'],
  notes: ['app', 'presenter'],
};

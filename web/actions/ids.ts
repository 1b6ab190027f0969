/*
 * ids.ts: the ids of every command, in one list, so buttons, keys, lessons and tests name them
 * the same way and a typo is a type error.
 */
export const A = {
  play: 'timeline.play',
  stepOpForward: 'timeline.step-op-forward',
  stepOpBack: 'timeline.step-op-back',
  stepEventForward: 'timeline.step-event-forward',
  stepEventBack: 'timeline.step-event-back',
  home: 'timeline.home',
  end: 'timeline.end',
  faster: 'timeline.faster',
  slower: 'timeline.slower',
  scrub: 'timeline.scrub',
  nextMarker: 'timeline.next-marker',
  prevMarker: 'timeline.prev-marker',
  grain: 'timeline.grain',
  branch: 'timeline.switch-branch',
  alloc: 'machine.alloc',
  free: 'machine.free',
  drain: 'machine.drain',
  drainAll: 'machine.drain-all',
  tick: 'machine.tick',
  cpuOffline: 'machine.cpu-offline',
  cpuOnline: 'machine.cpu-online',
  profile: 'machine.profile',
  compare: 'view.compare',
  runWorkload: 'workload.run',
  theme: 'app.theme',
  help: 'app.help',
  lessonNext: 'lesson.next',
  lessonPrev: 'lesson.previous',
  lessonReveal: 'lesson.reveal',
  lessonBlank: 'lesson.blank',
  lessonPresent: 'lesson.present',
  lessonNotes: 'lesson.notes',
} as const;
export type ActionId = (typeof A)[keyof typeof A];

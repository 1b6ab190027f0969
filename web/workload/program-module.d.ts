// `import program from './x.workload?program'`: a workload compiled at build time
// (web/workload/vite-plugin.ts).
declare module '*.workload?program' {
  const program: import('./program').PackedProgram;
  export default program;
}

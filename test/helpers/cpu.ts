/**
 * CPU time this process spent (user and system, ms) since `from` (a `process.cpuUsage()` reading).
 * Tests bound work by CPU time, not wall-clock time: on a loaded machine the wall clock runs on
 * while the process waits for a core, and the CPU time does not (issue 40, 2). The bound says
 * "the input is refused or bounded, not expanded"; speed targets live in the benchmarks.
 */
export function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A fixed CPU budget for one server process and the processes it starts (its script process), as
 * each process would have on a machine of its own: a Linux control group with a CPU quota.
 *
 * Why: on a 2-core machine shared with PostgreSQL and the benchmark's client, a second server process
 * can at most add the cores one process leaves idle, so the two-process ratio measures the machine.
 * With a budget per process (`TALEFORGE_BENCH_SERVE_CPUS=0.5`), it measures whether the second process
 * adds what the first one does, which is what scaling out needs.
 *
 * Needs a writable cgroup file system (root, or a delegated tree): version 1's `cpu` controller or
 * version 2 with `cpu` enabled. Anything else is reported, never ignored.
 */
export interface CpuBudget {
  /** Moves `pid` into a group of its own with the budget; its later children inherit it. */
  confine(pid: number): void;
  /** Removes the groups once their processes have ended. */
  release(): void;
  /** How the budget is applied, for the benchmark's output. */
  describe: string;
}

// The kernel's default period. A shorter one (10 ms, to stall a process less at a time) made every
// turn slower than the budget explains (3-8 turns/s instead of 37 at 0.5 core): each core takes its
// run time from the group in slices of 5 ms (sched_cfs_bandwidth_slice_us), so one core's slice
// left the group's other threads throttled.
const PERIOD_US = 100_000;
const V1 = "/sys/fs/cgroup/cpu";
const V2_ROOTS = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"];

/** The budget of `cores` per process, or the reason it cannot be applied here. */
export function cpuBudget(cores: number): CpuBudget | { unavailable: string } {
  if (!(cores > 0 && cores <= 64))
    return { unavailable: `TALEFORGE_BENCH_SERVE_CPUS=${cores} is not a number of cores in (0, 64]` };
  const quota = Math.round(cores * PERIOD_US);
  const version1 = existsSync(join(V1, "cpu.cfs_quota_us"));
  const version2 = V2_ROOTS.find((root) => controllers(root).includes("cpu"));
  const root = version1 ? V1 : version2;
  if (root === undefined)
    return {
      unavailable:
        "no cgroup cpu controller found (version 1 at /sys/fs/cgroup/cpu, or version 2 with cpu enabled)",
    };
  const groups: string[] = [];
  try {
    const probe = join(root, `taleforge-bench-${process.pid}-probe`);
    mkdirSync(probe);
    rmdirSync(probe);
  } catch (error) {
    return {
      unavailable: `cannot create a control group under ${root} (${(error as Error).message}): run as root`,
    };
  }
  return {
    describe: `each server process and its script process limited to ${cores} core(s) (cgroup ${version1 ? "v1 cpu.cfs_quota_us" : "v2 cpu.max"} ${quota}/${PERIOD_US} µs under ${root})`,
    confine(pid) {
      const group = join(root, `taleforge-bench-${process.pid}-${groups.length}`);
      mkdirSync(group);
      groups.push(group);
      if (version1) writeFileSync(join(group, "cpu.cfs_quota_us"), String(quota));
      else if (existsSync(join(group, "cpu.max")))
        writeFileSync(join(group, "cpu.max"), `${quota} ${PERIOD_US}`);
      else throw new Error(`${root}/cgroup.subtree_control does not enable cpu: no cpu.max in ${group}`);
      writeFileSync(join(group, "cgroup.procs"), String(pid));
    },
    release() {
      for (const group of groups.splice(0)) {
        try {
          rmdirSync(group);
        } catch {
          // A process still in it (a script process ending): the group is left, empty soon, and named by our pid.
        }
      }
    },
  };
}

function controllers(root: string): string[] {
  try {
    return readFileSync(join(root, "cgroup.controllers"), "utf8").trim().split(/\s+/);
  } catch {
    return [];
  }
}

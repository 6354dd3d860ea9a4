import { readFileSync } from 'node:fs';

/**
 * Samples the resident memory of a running process (Linux /proc) every 50 ms into `into.peakBytes`,
 * until the returned timer is cleared. For figures a test reports, or bounds generously.
 */
export function samplePeakRss(pid: number | undefined, into: { peakBytes: number }): NodeJS.Timeout {
  return setInterval(() => {
    try {
      const kilobytes = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (kilobytes !== undefined) into.peakBytes = Math.max(into.peakBytes, Number(kilobytes) * 1024);
    } catch {
      // The process has ended.
    }
  }, 50);
}

/**
 * Progress of a transfer on a terminal (docs/cli.md "Progress"): one line redrawn at most ten
 * times a second with the percentage, speed and time left; nothing at all when stderr is not a
 * terminal (piped, in a script) or with --json.
 */
import { humanSize } from '../format.ts';

export interface Progress {
  /** `bytes` more of this transfer are done. */
  add(bytes: number): void;
  /** The line is finished (a newline on a terminal). */
  done(): void;
}

const QUIET: Progress = { add() {}, done() {} };

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export function progress(label: string, total: number, done: number, show: boolean): Progress {
  if (!show || !process.stderr.isTTY) return QUIET;
  const started = performance.now();
  const startedAt = done;
  let drawn = 0;
  const draw = () => {
    const seconds = (performance.now() - started) / 1000;
    const speed = seconds > 0 ? (done - startedAt) / seconds : 0;
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    const left = speed > 0 ? (total - done) / speed : Number.POSITIVE_INFINITY;
    process.stderr.write(
      `\r\u001b[2K${label}  ${percent}%  ${humanSize(done)} of ${humanSize(total)}  ${humanSize(speed)}/s  ${clock(left)} left`,
    );
  };
  return {
    add(bytes) {
      done += bytes;
      const now = performance.now();
      if (now - drawn >= 100) {
        drawn = now;
        draw();
      }
    },
    done() {
      draw();
      process.stderr.write('\n');
    },
  };
}

import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** What a terminal that does not report its size is assumed to be. */
const fallbackSize: TerminalSize = { columns: 80, rows: 24 };

/** The terminal's size, updated on every resize so the layout follows the window. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => readSize(stdout));
  useEffect(() => {
    const onResize = () => setSize(readSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

function readSize(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || fallbackSize.columns, rows: stdout.rows || fallbackSize.rows };
}

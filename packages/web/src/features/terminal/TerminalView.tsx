import '@xterm/xterm/css/xterm.css';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { socketUrl } from '../../api/client.ts';

type Frame =
  | { type: 'output'; data: string }
  | { type: 'exit'; code: number }
  | { type: 'error'; errorType: string; message: string };

/**
 * A shell in xterm.js over the agent's exec WebSocket (or its local terminal): keystrokes go as `input` frames,
 * the size follows the element (`resize` frames), and an exit or error is printed where the reader looks.
 */
export function TerminalView({
  path,
  query,
  fill,
}: {
  path: string;
  query: Record<string, string | undefined>;
  /** Fills its parent's height (in the dock) instead of half the window's. */
  fill?: boolean;
}) {
  const element = useRef<HTMLElement>(null);
  const [status, setStatus] = useState('Connecting…');
  useEffect(() => {
    if (!element.current) return;
    const term = new Terminal({ fontSize: 13, cursorBlink: true, convertEol: false, screenReaderMode: true });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element.current);
    fit.fit();
    const socket = new WebSocket(
      socketUrl(path, { ...query, cols: String(term.cols), rows: String(term.rows) }),
    );
    const send = (frame: object) =>
      socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(frame));
    socket.onopen = () => {
      setStatus('Connected');
      term.focus();
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as Frame;
      if (frame.type === 'output') term.write(frame.data);
      else if (frame.type === 'exit') setStatus(`Exited with code ${frame.code}`);
      else setStatus(`${frame.errorType}: ${frame.message}`);
    };
    socket.onclose = () => setStatus((was) => (was === 'Connected' ? 'Disconnected' : was));
    const input = term.onData((data) => send({ type: 'input', data }));
    const resized = term.onResize(({ cols, rows }) => send({ type: 'resize', cols, rows }));
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      input.dispose();
      resized.dispose();
      socket.close();
      term.dispose();
    };
  }, [path, query]);
  return (
    <div className={`flex flex-col gap-2 ${fill ? 'h-full min-h-0' : ''}`}>
      <p role="status" className="text-xs text-slate-600 dark:text-slate-400">
        {status}
      </p>
      <section
        ref={element}
        aria-label="Shell"
        className={`${fill ? 'min-h-0 flex-1' : 'h-[50vh]'} rounded-md bg-black p-2`}
      />
    </div>
  );
}

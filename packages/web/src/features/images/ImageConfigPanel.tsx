import type { ReactNode } from 'react';
import { mutedLook } from '../../ui/controls.tsx';
import { commandWords, type ImageConfig } from './config.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className={mutedLook}>{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

const none = <span className={mutedLook}>not set</span>;
const mono = (text: string) => <span className="font-mono text-xs">{text}</span>;

/**
 * How the image runs when a pod sets nothing: entrypoint, command, user, directory, ports, and its environment
 * and labels as the config holds them (an image's Env is public to whoever can pull it, so values are shown).
 */
export function ImageConfigPanel({ config }: { config: ImageConfig }) {
  return (
    <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-2 text-sm">
      <Row label="Entrypoint">{config.entrypoint ? mono(commandWords(config.entrypoint)) : none}</Row>
      <Row label="Command">{config.cmd ? mono(commandWords(config.cmd)) : none}</Row>
      <Row label="User">
        {config.user ? mono(config.user) : <span className={mutedLook}>root (not set)</span>}
      </Row>
      <Row label="Working directory">{config.workingDir ? mono(config.workingDir) : none}</Row>
      <Row label="Exposed ports">
        {config.exposedPorts.length > 0 ? mono(config.exposedPorts.join(', ')) : none}
      </Row>
      {config.stopSignal && <Row label="Stop signal">{mono(config.stopSignal)}</Row>}
      <Row label="Environment">
        {config.env.length > 0 ? (
          <ul className="flex flex-col gap-0.5">
            {config.env.map((line) => (
              <li key={line} className="font-mono text-xs">
                {line}
              </li>
            ))}
          </ul>
        ) : (
          none
        )}
      </Row>
      <Row label="Labels">
        {config.labels.length > 0 ? (
          <ul className="flex flex-col gap-0.5">
            {config.labels.map(([key, value]) => (
              <li key={key} className="font-mono text-xs">
                {key}={value}
              </li>
            ))}
          </ul>
        ) : (
          none
        )}
      </Row>
      {config.author && <Row label="Author">{config.author}</Row>}
    </dl>
  );
}

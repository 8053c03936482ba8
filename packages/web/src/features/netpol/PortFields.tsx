import { controlLook, Field } from '../../ui/forms.tsx';
import { type Protocol, protocols } from './types.ts';

/** The port (empty: any port) and protocol of a question, as both the tester and the matrix ask them. */
export function PortFields(props: {
  port: string;
  protocol: Protocol;
  onPort: (port: string) => void;
  onProtocol: (protocol: Protocol) => void;
  portError?: string;
}) {
  return (
    <>
      <Field
        label="Port"
        inputMode="numeric"
        placeholder="any"
        className={`${controlLook} w-28`}
        value={props.port}
        onText={props.onPort}
        error={props.portError}
      />
      <label className="flex flex-col gap-1 text-sm">
        Protocol
        <select
          className={controlLook}
          value={props.protocol}
          onChange={(e) => props.onProtocol(e.target.value as Protocol)}
        >
          {protocols.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
      </label>
    </>
  );
}

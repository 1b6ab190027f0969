/*
 * MachineForm.tsx: the machine, the kernel profile, two sysctls and compare mode, as form fields.
 * Each field edits a header line of the workload text (the text stays the one truth) and runs it;
 * the reader's own machine, when one is loaded, stands in for the text's `machine` line.
 */
import { SYSCTLS } from '../../core/generated/sysctls';
import { DEFAULT_PROFILE } from '../../core/profiles';
import { useAction, useActions } from '../../actions/context';
import { A } from '../../actions/definitions';
import type { ExplicitMachine, ProfileName } from '../../core/machine-config';
import { MACHINES, PROFILES } from '../presets';
import { headerValue, setHeader, setSysctl, sysctlValue } from '../workload-text';
import type { Compare } from './useCompare';

/** The kernel's range for watermark_scale_factor (page_alloc/sysctls.def). */
const WSF_RANGE = SYSCTLS.find((s) => s.name === 'watermark_scale_factor');

/** A labelled select over named choices, for one header line of the workload text. */
function HeaderSelect({
  label,
  value,
  options,
  onPick,
}: {
  label: string;
  value: string;
  options: readonly { name: string; label: string }[];
  onPick: (name: string) => void;
}) {
  return (
    <label className="header-select">
      {label}{' '}
      <select
        aria-label={label}
        title={options.find((o) => o.name === value)?.label}
        value={value}
        onChange={(e) => onPick(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.name} value={o.name}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The profile the text names (the default when it names none). */
export function profileOf(text: string): ProfileName {
  return (headerValue(text, 'profile') ?? DEFAULT_PROFILE) as ProfileName;
}

export function MachineForm({
  text,
  machineOverride,
  onUseTextMachine,
  setAndRun,
  compare,
}: {
  text: string;
  machineOverride: ExplicitMachine | null;
  onUseTextMachine: () => void;
  setAndRun: (next: string) => void;
  compare: Pick<Compare, 'profile' | 'setProfile'>;
}) {
  const registry = useActions();
  const machine = headerValue(text, 'machine') ?? 'tiny';
  const profile = profileOf(text);
  const wsf = sysctlValue(text, 'watermark_scale_factor') ?? '10';
  const mfk = sysctlValue(text, 'min_free_kbytes') ?? '';
  useAction(A.profile, {
    run: () => {
      const i = PROFILES.findIndex((x) => x.name === profile);
      setAndRun(
        setHeader(text, 'profile', PROFILES[(i + 1) % PROFILES.length]?.name ?? DEFAULT_PROFILE),
      );
    },
  });
  return (
    <div className="machine-setup">
      {machineOverride && (
        <p className="your-machine small">
          Machine: yours, from /proc/zoneinfo ({machineOverride.nodes} node
          {machineOverride.nodes > 1 ? 's' : ''},{' '}
          {machineOverride.nodes * machineOverride.cpusPerNode} CPUs).{' '}
          <button type="button" onClick={onUseTextMachine}>
            Use the text’s machine
          </button>
        </p>
      )}
      {!machineOverride && (
        <HeaderSelect
          label="Machine"
          value={machine}
          options={MACHINES}
          onPick={(name) => setAndRun(setHeader(text, 'machine', name))}
        />
      )}
      <HeaderSelect
        label="Kernel"
        value={profile}
        options={PROFILES}
        onPick={(name) => setAndRun(setHeader(text, 'profile', name))}
      />
      <label>
        watermark_scale_factor{' '}
        <input
          type="number"
          min={WSF_RANGE?.min}
          max={WSF_RANGE?.max}
          defaultValue={wsf}
          key={`wsf-${wsf}`}
          onBlur={(e) =>
            e.target.value !== wsf &&
            setAndRun(setSysctl(text, 'watermark_scale_factor', e.target.value))
          }
        />
      </label>
      <label>
        min_free_kbytes{' '}
        <input
          type="number"
          min={0}
          placeholder="kernel default"
          defaultValue={mfk}
          key={`mfk-${mfk}`}
          onBlur={(e) =>
            e.target.value !== mfk &&
            e.target.value !== '' &&
            setAndRun(setSysctl(text, 'min_free_kbytes', e.target.value))
          }
        />
      </label>
      <div className="compare-toggle">
        <label>
          <input
            type="checkbox"
            checked={!!compare.profile}
            onChange={() => registry.dispatch(A.compare, undefined, 'button')}
          />{' '}
          Compare with
        </label>
        {compare.profile && (
          <select
            aria-label="Profile to compare with"
            value={compare.profile}
            onChange={(e) => compare.setProfile(e.target.value as ProfileName)}
          >
            {PROFILES.map((p) => (
              <option key={p.name} value={p.name}>
                {p.label}
              </option>
            ))}
          </select>
        )}
      </div>
    </div>
  );
}

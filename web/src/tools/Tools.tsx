// The brewer's tools: six calculators, each a form in the person's units whose answer (the
// API's: the formulas live on the server) follows as they type.
import { useEffect, useId, useState } from 'react';
import { ApiError, errorText, type Schemas } from '../api/client';
import { allOf } from '../api/enums';
import { DEFAULT_PREFERENCES, type Preferences } from '../api/extra';
import { SelectField, TextField } from '../components/Field';
import { Loading } from '../components/States';
import { usePrefsQuery } from '../prefs';
import { issueInUnits } from '../issueUnits';
import { display, formatNumber, symbolFor } from '../units';
import { isChoice, isDate, isoDay, shownInputs, startTexts, toolQuery, type ToolInput } from './query';
import { useToolAnswer } from './api';
import './Tools.css';

type Row = [label: string, value: string];

interface Tool<T> {
  name: string;
  title: string;
  intro: string;
  inputs: ToolInput[];
  results: (answer: T, p: Preferences) => Row[];
  /** More of the answer than label and value (a starter's steps as a table). */
  more?: (answer: T, p: Preferences) => React.ReactNode;
}

const co2: ToolInput = { key: 'co2_volumes', label: 'Carbonation', kind: 'plain', start: 2.4, symbol: 'vol CO₂' };

const priming: Tool<Schemas['Priming']> = {
  name: 'priming',
  title: 'Priming sugar',
  intro: 'Sugar for bottle conditioning, allowing for the CO₂ the beer still holds.',
  inputs: [
    { key: 'volume_liters', label: 'Beer to bottle', kind: 'volume', start: { L: 20, gal: 5 } },
    { key: 'temperature_c', label: 'Warmest beer temperature', kind: 'temperature', start: { '°C': 20, '°F': 68 }, hint: 'Since fermentation ended' },
    co2,
    {
      key: 'sugar',
      label: 'Sugar',
      start: 'corn',
      options: allOf<Schemas['Sugar']>()([
        ['corn', 'Corn sugar (dextrose)'],
        ['table', 'Table sugar'],
        ['dme', 'Dry malt extract'],
        ['honey', 'Honey'],
      ]),
    },
  ],
  results: (a, p) => [
    ['Sugar', display(a.sugar_grams, 'mass_g', p)],
    ['CO₂ already in the beer', `${formatNumber(a.residual_co2_volumes, 2)} vol`],
  ],
};

const kegPressure: Tool<Schemas['KegPressure']> = {
  name: 'keg-pressure',
  title: 'Keg pressure',
  intro: 'Regulator pressure that carbonates a keg at its temperature.',
  inputs: [{ key: 'temperature_c', label: 'Beer temperature', kind: 'temperature', start: { '°C': 4, '°F': 38 } }, co2],
  results: (a, p) =>
    p.amounts === 'us'
      ? [
          ['Pressure', `${formatNumber(a.pressure_psi, 1)} psi`],
          ['In kPa', `${formatNumber(a.pressure_kpa, 1)} kPa`],
        ]
      : [
          ['Pressure', `${formatNumber(a.pressure_kpa, 1)} kPa`],
          ['In psi', `${formatNumber(a.pressure_psi, 1)} psi`],
        ],
};

const refractometer: Tool<Schemas['Refractometer']> = {
  name: 'refractometer',
  title: 'Refractometer',
  intro: 'Gravity and ABV from Brix readings; the alcohol is corrected for (Sean Terrill’s cubic, or Petr Novotný’s).',
  inputs: [
    { key: 'original_brix', label: 'Original reading', kind: 'plain', start: 12.5, symbol: '°Bx' },
    { key: 'current_brix', label: 'Reading now', kind: 'plain', start: 6.5, symbol: '°Bx' },
    { key: 'wort_correction_factor', label: 'Wort correction factor', kind: 'plain', start: 1.04, hint: '1.04 is common' },
    {
      key: 'method',
      label: 'Correction',
      start: 'terrill',
      options: allOf<Schemas['RefractometerMethod']>()([
        ['terrill', 'Terrill'],
        ['novotny', 'Novotný'],
      ]),
    },
  ],
  results: (a, p) => [
    ['Original gravity', display(a.original_gravity, 'gravity', p)],
    ['Gravity now', display(a.current_gravity, 'gravity', p)],
    ['ABV', `${formatNumber(a.abv_percent, 2)} %`],
  ],
};

const hydrometer: Tool<Schemas['HydrometerCorrection']> = {
  name: 'hydrometer-correction',
  title: 'Hydrometer temperature correction',
  intro: 'A reading taken warm or cold, as the hydrometer would read it at its calibration temperature.',
  inputs: [
    { key: 'gravity', label: 'Reading', kind: 'gravity', start: 1.05 },
    { key: 'sample_temperature_c', label: 'Sample temperature', kind: 'temperature', start: { '°C': 30, '°F': 86 } },
    { key: 'calibration_temperature_c', label: 'Calibrated at', kind: 'temperature', start: { '°C': 20, '°F': 68 } },
  ],
  results: (a, p) => [['Corrected gravity', display(a.corrected_gravity, 'gravity', p)]],
};

const dilution: Tool<Schemas['Dilution']> = {
  name: 'dilution',
  title: 'Dilution',
  intro: 'Water to add to bring a wort down to a gravity.',
  inputs: [
    { key: 'volume_liters', label: 'Wort volume', kind: 'volume', start: { L: 20, gal: 5 } },
    { key: 'gravity', label: 'Gravity now', kind: 'gravity', start: 1.06 },
    { key: 'target_gravity', label: 'Gravity wanted', kind: 'gravity', start: 1.05 },
  ],
  results: (a, p) => [
    ['Water to add', display(a.water_liters, 'volume', p)],
    ['Volume after', display(a.final_volume_liters, 'volume', p)],
  ],
};

const pitchRate: Tool<Schemas['PitchRate']> = {
  name: 'pitch-rate',
  title: 'Pitch rate',
  intro: 'Yeast cells to pitch (0.75 million per mL per °P for ales, 1.5 for lagers), in packs or one pack and a starter.',
  inputs: [
    { key: 'volume_liters', label: 'Wort volume', kind: 'volume', start: { L: 20, gal: 5 } },
    { key: 'og', label: 'Original gravity', kind: 'gravity', start: 1.05 },
    {
      key: 'kind',
      label: 'Beer',
      start: 'ale',
      options: allOf<Schemas['BeerKind']>()([
        ['ale', 'Ale'],
        ['lager', 'Lager'],
      ]),
    },
    { key: 'cells_per_pack_billion', label: 'Cells per pack', kind: 'plain', start: 100, symbol: 'billion' },
    // The pack's viability as the brewer knows it, or from the day it was made (the API's model).
    {
      key: 'viability_from',
      label: 'Viability from',
      formOnly: true,
      start: 'percent',
      options: [
        ['percent', 'Viability %'],
        ['date', 'Production date'],
      ],
    },
    { key: 'viability_percent', label: 'Viability', kind: 'percent', start: 90, when: (t) => t.viability_from === 'percent' },
    { key: 'production_date', label: 'Production date', date: true, start: isoDay(new Date(), 30), when: (t) => t.viability_from === 'date' },
    { key: 'as_of', label: 'Pitching day', date: true, start: '', optional: true, hint: 'Optional: today if empty', when: (t) => t.viability_from === 'date' },
  ],
  results: (a, p) => [
    ['Cells to pitch', `${formatNumber(a.cells_needed_billion, 0)} billion`],
    ['Packs without a starter', String(a.packs)],
    [
      'Or one pack and a starter',
      a.starter_liters == null ? 'One pack is enough' : `${display(a.starter_liters, 'volume', p)} at ${display(a.starter_gravity, 'gravity', p)}`,
    ],
    ...(a.age_days == null
      ? []
      : ([
          ['Viability used', `${formatNumber(a.viability_percent, 1)} %`],
          ['Age of the pack', a.age_days === 1 ? '1 day' : `${a.age_days} days`],
        ] as Row[])),
  ],
  more: (a, p) => (a.starter_steps.length > 0 ? <StarterSteps steps={a.starter_steps} p={p} /> : null),
};

/** A starter's steps, each decanted before the next: the API's litres, gravity, extract and cells. */
function StarterSteps({ steps, p }: { steps: Schemas['StarterStepAnswer'][]; p: Preferences }) {
  return (
    <table className="starter-steps">
      <caption>Starter steps</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">Wort ({symbolFor('volume', p)})</th>
          <th scope="col">Gravity</th>
          <th scope="col">Extract</th>
          <th scope="col">Cells (billion)</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s, i) => (
          <tr key={i}>
            <th scope="row">{i + 1}</th>
            <td>{display(s.liters, 'volume', p)}</td>
            <td>{display(s.gravity, 'gravity', p)}</td>
            <td>{display(s.extract_grams, 'mass_g', p)}</td>
            <td>
              {formatNumber(s.cells_before_billion, 1)} → {formatNumber(s.cells_after_billion, 1)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "Wort volume (gal)"; a unitless number (a correction factor) only its name. */
const unitLabel = (label: string, symbol: string) => (symbol ? `${label} (${symbol})` : label);

/** The value after it has stopped changing for `ms`: one request per pause in typing. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

function ToolForm<T>({ tool, prefs }: { tool: Tool<T>; prefs: Preferences }) {
  const headingId = useId();
  const [texts, setTexts] = useState(() => startTexts(tool.inputs, prefs));
  const built = toolQuery(tool.inputs, texts, prefs);
  const query = useSettled('query' in built ? built.query : null, 250);
  const answer = useToolAnswer<T>(tool.name, query);
  const api = answer.error instanceof ApiError ? answer.error : null;
  const fieldError = (input: ToolInput): string | undefined => {
    if ('missing' in built && built.missing.includes(input.key)) return isDate(input) ? 'Enter a date' : 'Enter a number';
    if (!api || isChoice(input)) return undefined;
    const issues = api.details.filter((d) => String(d.path[0] ?? '') === input.key);
    if (!issues.length) return undefined;
    return issues.map((d) => (isDate(input) ? d.message : issueInUnits(d, input.kind, prefs).message)).join('; ');
  };
  // A 400 names no field (the API's words for the whole query).
  const failed = answer.isError && !api?.details.length;
  const ready = answer.data && !answer.isError && 'query' in built;
  const rows = ready ? tool.results(answer.data as T, prefs) : null;
  const more = ready ? tool.more?.(answer.data as T, prefs) : null;
  return (
    <section className="panel tool" aria-labelledby={headingId}>
      <h2 id={headingId}>{tool.title}</h2>
      <p className="muted">{tool.intro}</p>
      <form className="form-grid" aria-label={tool.title} noValidate onSubmit={(e) => e.preventDefault()}>
        {shownInputs(tool.inputs, texts).map((input) =>
          isDate(input) ? (
            <TextField
              key={input.key}
              label={input.label}
              type="date"
              value={texts[input.key]}
              hint={input.hint}
              error={fieldError(input)}
              onChange={(e) => setTexts({ ...texts, [input.key]: e.target.value })}
            />
          ) : isChoice(input) ? (
            <SelectField
              key={input.key}
              label={input.label}
              options={input.options}
              value={texts[input.key]}
              onChange={(e) => setTexts({ ...texts, [input.key]: e.target.value })}
            />
          ) : (
            <TextField
              key={input.key}
              label={unitLabel(input.label, input.symbol ?? symbolFor(input.kind, prefs))}
              inputMode="decimal"
              autoComplete="off"
              value={texts[input.key]}
              hint={input.hint}
              error={fieldError(input)}
              onChange={(e) => setTexts({ ...texts, [input.key]: e.target.value })}
            />
          ),
        )}
      </form>
      <div aria-live="polite" aria-busy={answer.isFetching}>
        {failed && <p className="form-error">{errorText(answer.error)}</p>}
        {rows && (
          <dl className="stats compact" aria-label={`${tool.title} result`}>
            {rows.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
        {more}
      </div>
    </section>
  );
}

export default function Tools() {
  const prefs = usePrefsQuery();
  if (prefs.isPending) return <Loading what="your units" />;
  const p = prefs.data ?? DEFAULT_PREFERENCES;
  return (
    <div className="tools-page">
      <div className="page-head">
        <div>
          <h1>Tools</h1>
          <p className="muted">Brew-day and bottling-day calculators, in your units. Results follow as you type.</p>
        </div>
      </div>
      <div className="tools-grid">
        <ToolForm tool={priming} prefs={p} />
        <ToolForm tool={kegPressure} prefs={p} />
        <ToolForm tool={refractometer} prefs={p} />
        <ToolForm tool={hydrometer} prefs={p} />
        <ToolForm tool={dilution} prefs={p} />
        <ToolForm tool={pitchRate} prefs={p} />
      </div>
    </div>
  );
}

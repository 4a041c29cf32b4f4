// A brew session's brewhouse numbers, the API's: the mash efficiency and real attenuation it
// reached next to the planned ones.
import type { Schemas } from '../api/client';
import { formatNumber } from '../units';

const percent = (v: number | null | undefined) => (v == null ? '—' : `${formatNumber(v, 1)} %`);

export function Brewhouse({ numbers }: { numbers: Schemas['BrewhouseNumbers'] }) {
  const rows: [string, number | null | undefined, number | null | undefined][] = [
    ['Mash efficiency', numbers.planned_efficiency_percent, numbers.measured_efficiency_percent],
    ['Real attenuation', numbers.planned_real_attenuation_percent, numbers.measured_real_attenuation_percent],
  ];
  return (
    <table className="rows brewhouse" aria-label="Brewhouse numbers">
      <thead>
        <tr>
          <th scope="col">Brewhouse</th>
          <th scope="col">Planned</th>
          <th scope="col">Measured</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, planned, measured]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{percent(planned)}</td>
            <td>{percent(measured)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

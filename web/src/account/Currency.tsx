import { ApiError, type Schemas } from '../api/client';
import { useSaveCurrency } from './api';
import { SelectField } from '../components/Field';
import { ErrorBox, Loading } from '../components/States';
import { currencyName, formatMoney } from '../money';
import { usePrefsQuery } from '../prefs';

type Code = NonNullable<Schemas['UpdatePreferencesRequest']['currency']>;

/** The currencies this browser can write; the API accepts the active ISO 4217 codes and says so at the field otherwise. */
function currencyCodes(): string[] {
  try {
    return Intl.supportedValuesOf('currency');
  } catch {
    return ['AUD', 'CAD', 'CHF', 'CZK', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'NZD', 'PLN', 'SEK', 'USD'];
  }
}

/**
 * The currency the account's prices are in (a preference kept by the API): costs are written
 * with its symbol. None: plain numbers, as the prices were typed.
 */
export function Currency() {
  const prefs = usePrefsQuery();
  const save = useSaveCurrency();
  const options: [string, string][] = [['', 'None (plain numbers)'], ...currencyCodes().map((c): [string, string] => [c, `${c} — ${currencyName(c)}`])];
  const current = save.isPending ? (save.variables ?? '') : (prefs.data?.currency ?? '');
  return (
    <section className="panel" aria-labelledby="h-currency">
      <h2 id="h-currency">Currency</h2>
      <p className="muted">The currency your inventory prices are in. Costs are shown with its symbol; nothing is converted.</p>
      {prefs.isPending ? (
        <Loading what="your currency" />
      ) : prefs.isError ? (
        <ErrorBox error={prefs.error} retry={() => prefs.refetch()} />
      ) : (
        <>
          <SelectField
            label="Currency"
            value={current}
            options={options}
            onChange={(e) => save.mutate(e.target.value === '' ? null : (e.target.value as Code))}
            error={save.error instanceof ApiError ? save.error.at('currency') : undefined}
          />
          <p className="muted small">Example: {formatMoney(12.5, current || null)}</p>
        </>
      )}
      <p role="status" className="muted">
        {save.isPending ? 'Saving…' : save.isSuccess ? 'Currency saved.' : ''}
      </p>
      {save.error && !(save.error instanceof ApiError && save.error.at('currency')) && <ErrorBox error={save.error} />}
    </section>
  );
}

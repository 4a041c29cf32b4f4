/**
 * Money as the person reads it: with the symbol of the currency the account prices its stock in
 * (an ISO 4217 code from the preferences, which cost answers carry), or a plain number with two
 * decimals when the account has not chosen one. wort never converts between currencies.
 */
export function formatMoney(v: number, currency: string | null | undefined, maxDecimals = 2): string {
  if (!Number.isFinite(v)) return '';
  const digits = (min: number) => ({ minimumFractionDigits: min, maximumFractionDigits: Math.max(min, maxDecimals) });
  if (!currency) return new Intl.NumberFormat('en', { ...digits(2), useGrouping: false }).format(v);
  try {
    // The currency's own decimals (0 for JPY, 3 for KWD), more only when asked (prices per gram).
    const own = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().minimumFractionDigits ?? 2;
    return new Intl.NumberFormat('en', { style: 'currency', currency, ...digits(own) }).format(v);
  } catch {
    // A code this browser does not know: the number and the code.
    return `${new Intl.NumberFormat('en', { ...digits(2), useGrouping: false }).format(v)} ${currency}`;
  }
}

/** The currency's name in English (`EUR` → "Euro"), or the code itself when the browser has none. */
export function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

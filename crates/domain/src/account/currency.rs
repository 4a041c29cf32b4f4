//! The currency a person prices their stock in: an ISO 4217 code, one of the active codes of
//! the standard's List One as it stands in 2026 (funds codes, precious metals and the test and
//! "no currency" codes included, since they are ISO 4217 codes too).
//!
//! Codes withdrawn by then are refused: HRK (Croatia adopted the euro in 2023), SLL (replaced
//! by SLE), ZWL (replaced by ZWG in 2024), ANG (replaced by XCG in 2025), BGN (Bulgaria adopted
//! the euro on 1 January 2026), CUC (retired in 2021). wort never converts between currencies:
//! the code only says which currency the prices were typed in, so a client can write amounts
//! with its symbol.

/// The active ISO 4217 alphabetic codes, sorted.
pub const ISO_4217: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BHD",
    "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF",
    "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUP", "CVE", "CZK", "DJF",
    "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP",
    "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR",
    "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT",
    "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP",
    "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR",
    "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
    "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN",
    "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH",
    "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAF",
    "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD", "XPF", "XPT",
    "XSU", "XTS", "XUA", "XXX", "YER", "ZAR", "ZMW", "ZWG",
];

/// The code as the list holds it, when `code` is one (exactly: upper case, three letters).
pub fn currency(code: &str) -> Option<&'static str> {
    ISO_4217
        .binary_search(&code)
        .ok()
        .and_then(|i| ISO_4217.get(i).copied())
}

/// Every code, for the request body's enum.
pub fn currency_codes() -> Vec<&'static str> {
    ISO_4217.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_unique_and_three_upper_case_letters() {
        assert!(ISO_4217.windows(2).all(|w| w[0] < w[1]));
        assert!(
            ISO_4217
                .iter()
                .all(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase()))
        );
        assert!(ISO_4217.len() > 170, "{}", ISO_4217.len());
    }

    #[test]
    fn active_codes_are_known_and_others_are_not() {
        for code in [
            "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "NZD", "CHF", "XCG", "SLE", "ZWG",
        ] {
            assert_eq!(currency(code), Some(code));
        }
        for code in [
            "usd", "US", "USDD", "ABC", "HRK", "BGN", "ANG", "ZWL", "SLL", "", "€",
        ] {
            assert_eq!(currency(code), None, "{code}");
        }
    }
}

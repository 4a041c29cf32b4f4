//! Is fermentation over? The `fermentation.stable` webhook's detector: the gravity changed
//! by at most 0.001 over the last 48 hours, with at least 3 readings in that window.
//!
//! "Over the last 48 hours" is read strictly (docs/decisions/0034-webhooks.md): there must be a
//! reading at or before the window's start, the anchor, to show what the gravity was 48 hours
//! ago. Without it, three equal readings in the first hour after pitching (the lag phase, when
//! gravity has not started to move) would announce a fermentation that has not begun.

use time::{Duration, OffsetDateTime};

/// How far back the detector looks.
pub const STABLE_WINDOW: Duration = Duration::hours(48);
/// The most the gravity may move within the window.
pub const STABLE_TOLERANCE: f64 = 0.001;
/// Readings the window must hold (the anchor aside).
pub const STABLE_MIN_READINGS: usize = 3;

/// One gravity reading: when, and the SG.
pub type GravityPoint = (OffsetDateTime, f64);

/// What the detector found.
#[derive(Debug, Clone, PartialEq)]
pub struct Stable {
    /// The latest gravity.
    pub gravity: f64,
    /// The anchor's time: the gravity has held since then.
    pub since: OffsetDateTime,
    /// Readings in the window, the anchor aside.
    pub readings: usize,
}

/// What the readings say.
#[derive(Debug, Clone, PartialEq)]
pub enum Stability {
    /// Held still over the whole window: announce (once).
    Stable(Stable),
    /// Moved by more than the tolerance within the window: fermenting (again).
    Moving,
    /// Too few readings to tell (a silent hydrometer, sparse readings by hand): neither
    /// announce nor forget an announcement.
    Unknown,
}

/// `anchor`: the newest reading at or before `latest − 48 h`; `window`: every reading after it
/// up to the latest, oldest first.
pub fn stability(anchor: Option<GravityPoint>, window: &[GravityPoint]) -> Stability {
    let Some(&(latest_at, gravity)) = window.last() else {
        return Stability::Unknown;
    };
    let (low, high) = window
        .iter()
        .chain(anchor.as_ref())
        .map(|&(_, g)| g)
        .fold((gravity, gravity), |(lo, hi), g| (lo.min(g), hi.max(g)));
    // A hair of slack so that 1.011 and 1.012, whose difference is 0.00099999… or 0.00100000…1
    // in binary floating point, count as 0.001 apart.
    if high - low > STABLE_TOLERANCE + 1e-9 {
        return Stability::Moving;
    }
    match anchor {
        Some((since, _))
            if window.len() >= STABLE_MIN_READINGS && latest_at - since >= STABLE_WINDOW =>
        {
            Stability::Stable(Stable {
                gravity,
                since,
                readings: window.len(),
            })
        }
        _ => Stability::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    /// The finding when the gravity held, else `None`.
    fn stable(anchor: Option<GravityPoint>, window: &[GravityPoint]) -> Option<Stable> {
        match stability(anchor, window) {
            Stability::Stable(found) => Some(found),
            Stability::Moving | Stability::Unknown => None,
        }
    }

    const T0: OffsetDateTime = datetime!(2026-11-01 12:00 UTC);

    fn at(hours: i64, g: f64) -> GravityPoint {
        (T0 + Duration::hours(hours), g)
    }

    #[test]
    fn flat_for_48_hours_with_three_readings_is_stable() {
        let found = stable(
            Some(at(0, 1.012)),
            &[at(12, 1.011), at(30, 1.011), at(48, 1.011)],
        );
        assert_eq!(
            found,
            Some(Stable {
                gravity: 1.011,
                since: T0,
                readings: 3
            })
        );
    }

    #[test]
    fn a_gap_in_the_readings_is_unknown_not_moving() {
        // Announced, then the hydrometer fell silent for two days: one reading in the window.
        assert_eq!(
            stability(Some(at(0, 1.011)), &[at(60, 1.011)]),
            Stability::Unknown
        );
        assert_eq!(
            stability(Some(at(0, 1.011)), &[at(30, 1.011), at(60, 1.016)]),
            Stability::Moving
        );
    }

    #[test]
    fn too_few_readings_or_too_short_or_still_moving_is_not() {
        assert_eq!(
            stable(Some(at(0, 1.011)), &[at(24, 1.011), at(48, 1.011)]),
            None
        );
        assert_eq!(
            stable(None, &[at(1, 1.050), at(2, 1.050), at(3, 1.050)]),
            None,
            "three equal readings after pitching: fermentation has not begun"
        );
        assert_eq!(
            stable(
                Some(at(0, 1.014)),
                &[at(12, 1.013), at(30, 1.012), at(48, 1.012)]
            ),
            None
        );
        assert_eq!(
            stable(
                Some(at(10, 1.011)),
                &[at(20, 1.011), at(30, 1.011), at(40, 1.011)]
            ),
            None,
            "the anchor must be 48 hours before the latest reading"
        );
    }
}

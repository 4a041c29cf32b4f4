//! A session's fermentation readings (`GET /v1/sessions/{id}/fermentation-logs`).

use wort_domain::brew_session::Reading;

use super::{Object, array, key};

/// `[reading, …]`, byte for byte what `serde_json::to_vec(logs)` gives.
pub fn readings(logs: &[Reading]) -> serde_json::Result<Vec<u8>> {
    // A reading is 220–260 bytes without notes.
    array(logs, 256, reading)
}

fn reading(log: &Reading, out: &mut Object<'_>) -> serde_json::Result<()> {
    let Reading {
        id,
        session_id,
        logged_at,
        gravity,
        gravity_unit,
        temperature_c,
        ph,
        notes,
        device_id,
        created_at,
    } = log;
    out.uuid(key!("id"), *id);
    out.uuid(key!("session_id"), *session_id);
    out.instant(key!("logged_at"), *logged_at);
    out.serde(key!("gravity"), gravity)?;
    out.word(key!("gravity_unit"), gravity_unit.as_str());
    out.serde(key!("temperature_c"), temperature_c)?;
    out.serde(key!("ph"), ph)?;
    out.serde(key!("notes"), notes)?;
    out.optional_uuid(key!("device_id"), *device_id);
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::generated::{INSTANTS, Lcg, NUMBERS, sometimes};
    use super::*;
    use uuid::Uuid;
    use wort_domain::brew_session::GravityUnit;

    fn generated(count: usize) -> Vec<Reading> {
        let mut random = Lcg(0x5EED);
        (0..count)
            .map(|_| Reading {
                id: Uuid::from_u64_pair(random.next(), random.next()),
                session_id: Uuid::from_u64_pair(random.next() << 31, random.next()),
                logged_at: random.pick(INSTANTS),
                gravity: sometimes(&mut random, |r| r.pick(NUMBERS)),
                gravity_unit: random.pick(GravityUnit::ALL),
                temperature_c: sometimes(&mut random, |r| r.pick(NUMBERS)),
                ph: sometimes(&mut random, |r| r.pick(NUMBERS)),
                notes: sometimes(&mut random, Lcg::text),
                device_id: sometimes(&mut random, |r| Uuid::from_u64_pair(u64::MAX, r.next())),
                created_at: random.pick(INSTANTS),
            })
            .collect()
    }

    #[test]
    fn writes_the_bytes_of_the_derived_serialize() {
        let logs = generated(2_000);
        let by_hand = readings(&logs).expect("written");
        let reference = serde_json::to_vec(&logs).expect("serialized");
        assert_eq!(
            String::from_utf8_lossy(&by_hand),
            String::from_utf8_lossy(&reference)
        );
    }

    #[test]
    fn each_reading_alone_matches_too() {
        for log in generated(300) {
            let by_hand = readings(std::slice::from_ref(&log)).expect("written");
            let reference = serde_json::to_vec(&[&log]).expect("serialized");
            assert_eq!(by_hand, reference, "{log:?}");
        }
    }

    #[test]
    fn an_empty_page_is_an_empty_array() {
        assert_eq!(readings(&[]).expect("written"), b"[]");
    }
}

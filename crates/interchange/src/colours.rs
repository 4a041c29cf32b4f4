//! BeerXML fermentable colours in EBC. BeerXML wants `COLOR` in °Lovibond (read as SRM), but
//! BeerSmith writes its EBC figures there when the brewer works in EBC (Aussie Ale: pale malt
//! `4.925`, roasted barley `591`, `DISPLAY_COLOR` `591.0 EBC`). Read as SRM, such a grist is
//! nearly twice as dark as the file's own estimate says. With `auto`, the file's `EST_COLOR`
//! decides: when it agrees with the grist read as EBC and not with it read as SRM (within the
//! colour tolerance of the import report), the colours are converted (SRM = EBC × 0.508), with
//! a warning; `srm` and `ebc` force a reading.

use crate::FermentableColor;
use crate::domain::{
    MaltColour, NewFermentable, SRM_PER_EBC, colour_agrees, est_color_srm_of_malts,
};
use crate::report::Report;

/// The recipe's SRM with each fermentable's colour × `factor`.
fn srm_with(batch_liters: f64, fermentables: &[NewFermentable], factor: f64) -> f64 {
    let malts: Vec<MaltColour> = fermentables
        .iter()
        .map(|f| MaltColour {
            amount_kg: f.amount_kg,
            color_srm: f.color_srm * factor,
        })
        .collect();
    est_color_srm_of_malts(batch_liters, &malts)
}

/// Converts `fermentables`' colours from EBC to SRM when `choice` (or, with `auto`, the file's
/// estimate `file_srm`) says they are EBC; `path` is the fermentable list's, for the warning.
pub(crate) fn read(
    fermentables: &mut [NewFermentable],
    batch_liters: f64,
    file_srm: Option<f64>,
    choice: FermentableColor,
    path: &[String],
    r: &mut Report,
) {
    let in_ebc = match choice {
        FermentableColor::Srm => false,
        FermentableColor::Ebc => true,
        FermentableColor::Auto => {
            let Some(file) = file_srm.filter(|s| s.is_finite() && *s > 0.0) else {
                return;
            };
            if fermentables.iter().all(|f| f.color_srm <= 0.0) {
                return;
            }
            let as_srm = srm_with(batch_liters, fermentables, 1.0);
            let as_ebc = srm_with(batch_liters, fermentables, SRM_PER_EBC);
            let ebc = !colour_agrees(file, as_srm) && colour_agrees(file, as_ebc);
            if ebc {
                r.warn(
                    path,
                    format!(
                        "fermentable colours read as EBC and converted to SRM (× {SRM_PER_EBC}): \
                         the file's colour estimate, {file:.1} SRM, agrees with them as EBC \
                         ({as_ebc:.1} SRM), not as the SRM BeerXML asks for ({as_srm:.1} SRM). \
                         Import with ?fermentable_color=srm to keep them as written"
                    ),
                );
            }
            ebc
        }
    };
    if in_ebc {
        for f in fermentables.iter_mut() {
            f.color_srm *= SRM_PER_EBC;
        }
    }
}

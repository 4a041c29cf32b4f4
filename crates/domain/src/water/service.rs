//! The water use cases: profiles, a recipe's water report, the calibration.

use std::sync::Arc;

use uuid::Uuid;

use super::model::{
    MashPh, WaterCalibration, WaterProfile, WaterProfileInput, WaterProfilePatch, WaterReport,
    WaterSummary,
};
use super::ports::WaterRepository;
use crate::brew_session::ports::MashPhPrediction;
use crate::brewing::round_to;
use crate::brewing::water::{
    self, CALIBRATION_MIN_PAIRS, DEFAULT_WATER_PH, Ions, Mash, acid_needed, malt_buffer, mash_of,
};
use crate::equipment::{EquipmentProfile, EquipmentRepository};
use crate::page::{Page, PageRequest};
use crate::ports::{Clock, RecipeRepository};
use crate::recipe::RecipeDetail;
use crate::{DomainResult, UserId};

/// The model's name as every prediction reports it.
pub const MODEL: &str = "deLange proton deficit (charge balance), malt buffers from Troester 2009";

pub struct WaterService {
    water: Arc<dyn WaterRepository>,
    recipes: Arc<dyn RecipeRepository>,
    equipment: Arc<dyn EquipmentRepository>,
    clock: Arc<dyn Clock>,
}

impl WaterService {
    pub fn new(
        water: Arc<dyn WaterRepository>,
        recipes: Arc<dyn RecipeRepository>,
        equipment: Arc<dyn EquipmentRepository>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        WaterService {
            water,
            recipes,
            equipment,
            clock,
        }
    }

    pub async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<WaterProfile>> {
        self.water.list(user, page).await
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<WaterProfile> {
        self.water.get(user, id).await
    }

    pub async fn create(
        &self,
        user: UserId,
        input: WaterProfileInput,
    ) -> DomainResult<WaterProfile> {
        self.water.create(user, input, self.clock.now()).await
    }

    /// A built-in profile is read-only (`409`), even for an empty patch.
    pub async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: WaterProfilePatch,
    ) -> DomainResult<WaterProfile> {
        let current = self.water.get(user, id).await?;
        if current.builtin {
            return Err(super::rules::builtin_is_read_only());
        }
        if patch.is_empty() {
            return Ok(current);
        }
        self.water
            .replace(user, id, patch.applied_to(&current), self.clock.now())
            .await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        if self.water.get(user, id).await?.builtin {
            return Err(super::rules::builtin_is_read_only());
        }
        self.water.delete(user, id).await
    }

    /// The recipe's water report aiming at `target_ph`.
    pub async fn report(
        &self,
        user: UserId,
        recipe_id: Uuid,
        target_ph: f64,
    ) -> DomainResult<WaterReport> {
        let recipe = self.recipes.get(user, recipe_id).await?;
        let calibration = self.calibration(user).await?;
        let (mash, report) = self.mash(user, &recipe).await?;
        Ok(finish(report, &mash, &calibration, target_ph))
    }

    /// The account's predicted-versus-measured pairs and the correction they give.
    pub async fn calibration(&self, user: UserId) -> DomainResult<WaterCalibration> {
        let pairs = self.water.calibration_pairs(user).await?;
        let numbers: Vec<(f64, f64)> = pairs.iter().map(|p| (p.predicted, p.measured)).collect();
        Ok(WaterCalibration {
            mean_error: water::mean_error(&numbers).map(|e| round_to(e, 3)),
            correction: water::correction(&numbers).map(|e| round_to(e, 3)),
            pairs,
            min_pairs: CALIBRATION_MIN_PAIRS,
        })
    }

    /// The recipe's mash as the model sees it, and the report without its pH parts.
    async fn mash(&self, user: UserId, recipe: &RecipeDetail) -> DomainResult<(Mash, WaterReport)> {
        let r = &recipe.recipe;
        let source = match r.water_profile_id {
            Some(id) => Some(self.water.get(user, id).await?),
            None => None,
        };
        let target = match r.target_water_profile_id {
            Some(id) => Some(self.water.get(user, id).await?),
            None => None,
        };
        let equipment = match r.equipment_id {
            Some(id) => Some(self.equipment.get(user, id).await?),
            None => None,
        };
        let water = recipe_water(
            recipe,
            equipment.as_ref().map(|e| &e.profile),
            source.as_ref(),
        );
        let all_liters = water.all_liters();
        let RecipeWater {
            mash,
            mash_liters,
            sparge_liters,
            overall,
            volumes_from,
        } = water;
        let report = WaterReport {
            recipe_id: r.id,
            water_profile: source,
            target_water_profile: target,
            mash: summary(mash_liters, mash.water),
            overall: summary(all_liters, overall),
            sparge_liters: round_to(sparge_liters, 2),
            volumes_from,
            mash_ph: MashPh {
                model: MODEL,
                predicted: None,
                correction: None,
                corrected: None,
                calibration_pairs: 0,
            },
            acid_needed: None,
        };
        Ok((mash, report))
    }
}

/// The prediction a measured mash pH is stored beside: the uncorrected prediction for the
/// session's recipe as it is now (none when the session has no recipe left or nothing is
/// mashed).
#[async_trait::async_trait]
impl MashPhPrediction for WaterService {
    async fn predicted_mash_ph(&self, user: UserId, session_id: Uuid) -> DomainResult<Option<f64>> {
        let Some(recipe_id) = self.water.session_recipe(user, session_id).await? else {
            return Ok(None);
        };
        match self.recipes.get(user, recipe_id).await {
            Ok(recipe) => Ok(self
                .mash(user, &recipe)
                .await?
                .0
                .ph()
                .map(|p| round_to(p, 3))),
            Err(crate::DomainError::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A recipe's water as the model sees it: the mash (its water after the mash additions) and the
/// whole water after every addition. What `/water` reports and the recipe checks judge.
#[derive(Debug, Clone, PartialEq)]
pub struct RecipeWater {
    pub mash: Mash,
    pub mash_liters: f64,
    pub sparge_liters: f64,
    /// Every litre of water with every addition (mash and sparge).
    pub overall: Ions,
    /// `equipment` (the profile's strike and sparge water) or `batch_size` (no profile: the batch
    /// size is all mash water).
    pub volumes_from: &'static str,
}

impl RecipeWater {
    pub fn all_liters(&self) -> f64 {
        self.mash_liters + self.sparge_liters
    }
}

/// The water of `recipe` brewed on `equipment` (if any) from `source` water (none: distilled, pH
/// 7): mash and sparge volumes from the profile's volumes (or the batch size, all in the mash),
/// the mash's malts, and the additions spread over their step's water.
pub fn recipe_water(
    recipe: &RecipeDetail,
    equipment: Option<&EquipmentProfile>,
    source: Option<&WaterProfile>,
) -> RecipeWater {
    let r = &recipe.recipe;
    let (mash_liters, sparge_liters, volumes_from) = match equipment {
        Some(profile) => {
            let v = crate::brewing::volumes(profile, &recipe.stats_input());
            (v.strike_water_liters, v.sparge_water_liters, "equipment")
        }
        None => (r.batch_size_liters, 0.0, "batch_size"),
    };
    let source_ions = source.map(WaterProfile::ions).unwrap_or_default();
    let source_ph = source.and_then(|p| p.ph).unwrap_or(DEFAULT_WATER_PH);
    let additions: Vec<water::Addition> = recipe.water_additions.iter().map(|a| a.calc()).collect();
    let malts = recipe
        .fermentables
        .iter()
        .filter(|f| f.kind.is_mashed() && f.amount_kg > 0.0)
        .map(|f| malt_buffer(&f.name, f.color_srm, f.amount_kg))
        .collect();
    let mash = mash_of(malts, source_ions, source_ph, &additions, mash_liters);
    let overall = water::ions_after(source_ions, &additions, mash_liters + sparge_liters, |_| {
        true
    });
    RecipeWater {
        mash,
        mash_liters,
        sparge_liters,
        overall,
        volumes_from,
    }
}

fn summary(liters: f64, ions: Ions) -> WaterSummary {
    WaterSummary {
        liters: round_to(liters, 2),
        residual_alkalinity: round_to(ions.residual_alkalinity(), 1),
        sulfate_to_chloride: ions.sulfate_to_chloride().map(|r| round_to(r, 2)),
        ions: Ions {
            calcium: round_to(ions.calcium, 1),
            magnesium: round_to(ions.magnesium, 1),
            sodium: round_to(ions.sodium, 1),
            sulfate: round_to(ions.sulfate, 1),
            chloride: round_to(ions.chloride, 1),
            bicarbonate: round_to(ions.bicarbonate, 1),
        },
    }
}

/// The pH parts: the prediction, the correction once there is one, and the acid that reaches the
/// target. With a correction c (measured runs c above the model), the model is aimed at
/// `target − c` so that the measured pH lands on the target.
fn finish(
    mut report: WaterReport,
    mash: &Mash,
    calibration: &WaterCalibration,
    target_ph: f64,
) -> WaterReport {
    let predicted = mash.ph();
    let correction = calibration.correction;
    report.mash_ph = MashPh {
        model: MODEL,
        predicted: predicted.map(|p| round_to(p, 2)),
        correction,
        corrected: predicted.map(|p| round_to(p + correction.unwrap_or(0.0), 2)),
        calibration_pairs: calibration.pairs.len(),
    };
    report.acid_needed = predicted.map(|_| {
        let mut need = acid_needed(mash, target_ph - correction.unwrap_or(0.0));
        need.target_ph = target_ph;
        need.meq = round_to(need.meq, 2);
        need.lactic_acid_88_ml = need.lactic_acid_88_ml.map(|v| round_to(v, 2));
        need.phosphoric_acid_10_ml = need.phosphoric_acid_10_ml.map(|v| round_to(v, 2));
        need.baking_soda_g = need.baking_soda_g.map(|v| round_to(v, 2));
        need
    });
    report
}

//! The equipment use cases: a brewer's profiles, checked whole on every write.

use std::sync::Arc;

use uuid::Uuid;

use super::model::{Equipment, EquipmentPatch, EquipmentProfile};
use super::ports::EquipmentRepository;
use super::rules::check_profile;
use crate::error::DomainError;
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::{DomainResult, UserId};

pub struct EquipmentService {
    equipment: Arc<dyn EquipmentRepository>,
    clock: Arc<dyn Clock>,
}

impl EquipmentService {
    pub fn new(equipment: Arc<dyn EquipmentRepository>, clock: Arc<dyn Clock>) -> Self {
        EquipmentService { equipment, clock }
    }

    pub async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Equipment>> {
        self.equipment.list(user, page).await
    }

    /// A physically impossible profile is refused with every broken rule named.
    pub async fn create(&self, user: UserId, profile: EquipmentProfile) -> DomainResult<Equipment> {
        possible(profile.clone())?;
        self.equipment.create(user, profile, self.clock.now()).await
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Equipment> {
        self.equipment.get(user, id).await
    }

    /// The patched profile is checked whole: lowering the batch below a loss is refused too.
    pub async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: EquipmentPatch,
    ) -> DomainResult<Equipment> {
        if patch.is_empty() {
            return self.equipment.get(user, id).await;
        }
        let change = |stored: &EquipmentProfile| possible(patch.applied_to(stored));
        self.equipment
            .update(user, id, &change, self.clock.now())
            .await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.equipment.delete(user, id).await
    }
}

fn possible(profile: EquipmentProfile) -> DomainResult<EquipmentProfile> {
    let violations = check_profile(&profile);
    if violations.is_empty() {
        Ok(profile)
    } else {
        Err(DomainError::Invalid(violations))
    }
}

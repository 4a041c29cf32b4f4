//! Diesel table definitions, written by hand to match `migrations/`.

diesel::table! {
    users (id) {
        id -> Uuid,
        email -> Text,
        name -> Text,
        password_hash -> Text,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        /// How many recipes the account holds, kept by triggers on `recipes` (migration 000008).
        recipe_count -> Int8,
        pref_amounts -> Text,
        pref_gravity -> Text,
        pref_color -> Text,
        pref_temperature -> Text,
        pref_currency -> Nullable<Text>,
    }
}

diesel::table! {
    auth_sessions (id) {
        id -> Uuid,
        user_id -> Uuid,
        token_hash -> Bytea,
        expires_at -> Timestamptz,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    api_keys (id) {
        id -> Uuid,
        user_id -> Uuid,
        name -> Text,
        key_hash -> Bytea,
        start -> Text,
        prefix -> Text,
        enabled -> Bool,
        expires_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        last_used_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    sign_in_failures (subject) {
        subject -> Text,
        failures -> Integer,
        window_start -> Timestamptz,
    }
}

diesel::table! {
    recipes (id) {
        id -> Uuid,
        user_id -> Uuid,
        name -> Text,
        style -> Text,
        #[sql_name = "type"]
        kind -> Text,
        batch_size_liters -> Double,
        boil_time_minutes -> Double,
        efficiency -> Double,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        equipment_id -> Nullable<Uuid>,
        style_id -> Nullable<Text>,
        water_profile_id -> Nullable<Uuid>,
        target_water_profile_id -> Nullable<Uuid>,
        parent_recipe_id -> Nullable<Uuid>,
        parent_version -> Nullable<Integer>,
        source_url -> Nullable<Text>,
    }
}

diesel::table! {
    recipe_versions (recipe_id, number) {
        recipe_id -> Uuid,
        number -> Integer,
        user_id -> Uuid,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        message -> Nullable<Text>,
        snapshot -> Nullable<Jsonb>,
        summary -> Nullable<Text>,
    }
}

diesel::table! {
    recipe_shares (recipe_id) {
        recipe_id -> Uuid,
        user_id -> Uuid,
        token -> Text,
        include_notes -> Bool,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    equipment_profiles (id) {
        id -> Uuid,
        user_id -> Uuid,
        name -> Text,
        batch_size_liters -> Double,
        boil_off_liters_per_hour -> Double,
        trub_chiller_loss_liters -> Double,
        mash_tun_deadspace_liters -> Double,
        grain_absorption_liters_per_kg -> Double,
        top_up_water_liters -> Double,
        fermenter_loss_liters -> Double,
        hop_utilization_percent -> Double,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        mash_method -> Text,
        mash_tun_volume_liters -> Nullable<Double>,
    }
}

diesel::table! {
    fermentables (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        name -> Text,
        #[sql_name = "type"]
        kind -> Text,
        amount_kg -> Double,
        color_srm -> Double,
        yield_percent -> Double,
        origin -> Nullable<Text>,
        notes -> Nullable<Text>,
        sort_order -> Integer,
        created_at -> Timestamptz,
        catalog_id -> Nullable<Uuid>,
        added -> Nullable<Text>,
    }
}

diesel::table! {
    hops (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        name -> Text,
        alpha_acid -> Double,
        amount_grams -> Double,
        time_minutes -> Double,
        #[sql_name = "use"]
        hop_use -> Text,
        sort_order -> Integer,
        created_at -> Timestamptz,
        form -> Nullable<Text>,
        catalog_id -> Nullable<Uuid>,
        temperature_c -> Nullable<Double>,
    }
}

diesel::table! {
    yeasts (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        name -> Text,
        lab -> Nullable<Text>,
        product_id -> Nullable<Text>,
        #[sql_name = "type"]
        kind -> Text,
        form -> Nullable<Text>,
        attenuation -> Nullable<Double>,
        min_temp_c -> Nullable<Double>,
        max_temp_c -> Nullable<Double>,
        amount -> Nullable<Double>,
        amount_unit -> Nullable<Text>,
        notes -> Nullable<Text>,
        sort_order -> Integer,
        created_at -> Timestamptz,
        catalog_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    miscs (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        name -> Text,
        #[sql_name = "type"]
        kind -> Text,
        #[sql_name = "use"]
        misc_use -> Text,
        amount -> Double,
        amount_unit -> Text,
        time_minutes -> Double,
        notes -> Nullable<Text>,
        sort_order -> Integer,
        created_at -> Timestamptz,
        catalog_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    mash_steps (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        name -> Text,
        #[sql_name = "type"]
        kind -> Text,
        temperature_c -> Double,
        duration_minutes -> Double,
        infuse_amount_liters -> Nullable<Double>,
        ramp_minutes -> Nullable<Double>,
        sort_order -> Integer,
        created_at -> Timestamptz,
        infuse_temperature_c -> Nullable<Double>,
    }
}

diesel::table! {
    inventory_items (id) {
        id -> Uuid,
        user_id -> Uuid,
        category -> Text,
        name -> Text,
        amount -> Double,
        amount_unit -> Text,
        #[sql_name = "type"]
        kind -> Nullable<Text>,
        form -> Nullable<Text>,
        origin -> Nullable<Text>,
        alpha_acid -> Nullable<Double>,
        color_srm -> Nullable<Double>,
        yield_percent -> Nullable<Double>,
        attenuation -> Nullable<Double>,
        year -> Nullable<Integer>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        catalog_id -> Nullable<Uuid>,
        price_per_unit -> Nullable<Double>,
        best_before -> Nullable<Date>,
    }
}

diesel::table! {
    brew_sessions (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Nullable<Uuid>,
        name -> Text,
        brew_date -> Date,
        status -> Text,
        measured_og -> Nullable<Double>,
        measured_fg -> Nullable<Double>,
        measured_batch_size_liters -> Nullable<Double>,
        notes -> Nullable<Text>,
        recipe_snapshot -> Jsonb,
        brewing_started_at -> Nullable<Timestamptz>,
        fermenting_started_at -> Nullable<Timestamptz>,
        conditioning_started_at -> Nullable<Timestamptz>,
        completed_at -> Nullable<Timestamptz>,
        abandoned_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        /// When `fermentation.stable` was announced; null until then and once gravity moves.
        stable_announced_at -> Nullable<Timestamptz>,
        measured_mash_ph -> Nullable<Double>,
        predicted_mash_ph -> Nullable<Double>,
        recipe_version -> Nullable<Integer>,
    }
}

diesel::table! {
    brew_steps (id) {
        id -> Uuid,
        user_id -> Uuid,
        session_id -> Uuid,
        title -> Text,
        description -> Nullable<Text>,
        sort_order -> Integer,
        duration_minutes -> Nullable<Double>,
        completed -> Bool,
        completed_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        boil -> Bool,
        boil_addition_at -> Nullable<Double>,
        timer_state -> Text,
        timer_started_at -> Nullable<Timestamptz>,
        timer_ends_at -> Nullable<Timestamptz>,
        timer_remaining_seconds -> Nullable<Double>,
        quantities -> Jsonb,
    }
}

diesel::table! {
    fermentation_logs (id) {
        id -> Uuid,
        user_id -> Uuid,
        session_id -> Uuid,
        logged_at -> Timestamptz,
        gravity -> Nullable<Double>,
        gravity_unit -> Text,
        temperature_c -> Nullable<Double>,
        ph -> Nullable<Double>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        device_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    devices (id) {
        id -> Uuid,
        user_id -> Uuid,
        name -> Text,
        kind -> Text,
        session_id -> Nullable<Uuid>,
        token_hash -> Bytea,
        last_seen_at -> Nullable<Timestamptz>,
        last_payload -> Nullable<Jsonb>,
        last_reading_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    webhook_endpoints (id) {
        id -> Uuid,
        user_id -> Uuid,
        url -> Text,
        events -> Array<Text>,
        active -> Bool,
        secret -> Text,
        consecutive_failures -> Integer,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        last_test_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    webhook_events (id) {
        id -> Uuid,
        user_id -> Uuid,
        #[sql_name = "type"]
        event_type -> Text,
        body -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Uuid,
        user_id -> Uuid,
        event_id -> Uuid,
        endpoint_id -> Uuid,
        state -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamptz,
        leased_until -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Uuid,
        user_id -> Uuid,
        delivery_id -> Uuid,
        endpoint_id -> Uuid,
        attempt -> Integer,
        outcome -> Text,
        response_status -> Nullable<Integer>,
        duration_ms -> Integer,
        error -> Nullable<Text>,
        attempted_at -> Timestamptz,
    }
}

diesel::table! {
    ai_usage (user_id, day) {
        user_id -> Uuid,
        day -> Date,
        messages -> Integer,
        tokens -> BigInt,
    }
}

diesel::table! {
    chat_threads (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Nullable<Uuid>,
        title -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    chat_messages (id) {
        id -> Uuid,
        user_id -> Uuid,
        thread_id -> Uuid,
        seq -> BigInt,
        role -> Text,
        content -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// `Idempotency-Key`s: one per account and key, with the first answer once there is one.
    idempotency_keys (user_id, key) {
        user_id -> Uuid,
        key -> Text,
        fingerprint -> Bytea,
        token -> Uuid,
        reserved_at -> Timestamptz,
        status -> Nullable<SmallInt>,
        content_type -> Nullable<Text>,
        location -> Nullable<Text>,
        body -> Nullable<Bytea>,
    }
}

diesel::table! {
    catalog_items (id) {
        id -> Uuid,
        user_id -> Nullable<Uuid>,
        kind -> Text,
        name -> Text,
        aliases -> Array<Text>,
        details -> Jsonb,
        notes -> Nullable<Text>,
        folded_name -> Text,
        folded_names -> Array<Text>,
        search_text -> Text,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    catalog_seed (singleton) {
        singleton -> Bool,
        fingerprint -> Text,
        seeded_at -> Timestamptz,
    }
}

diesel::table! {
    inventory_deductions (session_id) {
        session_id -> Uuid,
        user_id -> Uuid,
        lines -> Jsonb,
        applied_at -> Timestamptz,
    }
}

diesel::joinable!(auth_sessions -> users (user_id));
diesel::joinable!(api_keys -> users (user_id));
diesel::joinable!(recipes -> users (user_id));
diesel::joinable!(webhook_deliveries -> webhook_events (event_id));
diesel::joinable!(webhook_deliveries -> webhook_endpoints (endpoint_id));
diesel::joinable!(webhook_attempts -> webhook_deliveries (delivery_id));

diesel::table! {
    fermentation_steps (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        name -> Text,
        temperature_c -> Double,
        days -> Nullable<Double>,
        until_gravity -> Nullable<Double>,
        until_attenuation_percent -> Nullable<Double>,
        sort_order -> Integer,
        created_at -> Timestamptz,
        min_days -> Nullable<Double>,
    }
}

diesel::table! {
    session_fermentation_steps (id) {
        id -> Uuid,
        user_id -> Uuid,
        session_id -> Uuid,
        kind -> Text,
        name -> Text,
        temperature_c -> Nullable<Double>,
        amount_grams -> Nullable<Double>,
        due_at -> Nullable<Timestamptz>,
        due_at_gravity -> Nullable<Double>,
        due_at_attenuation_percent -> Nullable<Double>,
        days_after_previous -> Nullable<Double>,
        became_due_at -> Nullable<Timestamptz>,
        sort_order -> Integer,
        created_at -> Timestamptz,
        min_days_after_previous -> Nullable<Double>,
        due_at_gravity_from -> Nullable<Timestamptz>,
        condition_met_early -> Bool,
        due_by -> Nullable<Text>,
        due_gravity -> Nullable<Double>,
    }
}

diesel::table! {
    session_notes (id) {
        id -> Uuid,
        user_id -> Uuid,
        session_id -> Uuid,
        at -> Timestamptz,
        text -> Text,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    users,
    recipe_versions,
    recipe_shares,
    auth_sessions,
    api_keys,
    sign_in_failures,
    recipes,
    equipment_profiles,
    fermentables,
    hops,
    yeasts,
    miscs,
    mash_steps,
    fermentation_steps,
    session_fermentation_steps,
    session_notes,
    inventory_items,
    brew_sessions,
    brew_steps,
    fermentation_logs,
    ai_usage,
    chat_threads,
    chat_messages,
    devices,
    webhook_endpoints,
    webhook_events,
    webhook_deliveries,
    webhook_attempts,
    idempotency_keys,
    catalog_items,
    catalog_seed,
    inventory_deductions,
    water_profiles,
    water_additions,
);

diesel::table! {
    water_profiles (id) {
        id -> Uuid,
        user_id -> Nullable<Uuid>,
        name -> Text,
        calcium -> Double,
        magnesium -> Double,
        sodium -> Double,
        sulfate -> Double,
        chloride -> Double,
        bicarbonate -> Double,
        ph -> Nullable<Double>,
        source -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        kind -> Text,
    }
}

diesel::table! {
    water_additions (id) {
        id -> Uuid,
        user_id -> Uuid,
        recipe_id -> Uuid,
        agent -> Text,
        amount -> Double,
        strength_percent -> Nullable<Double>,
        acid_percent -> Nullable<Double>,
        step -> Text,
        sort_order -> Integer,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// The fermentation autopilot's rules (docs/alerts.md).
    alert_rules (id) {
        id -> Uuid,
        user_id -> Uuid,
        kind -> Text,
        session_id -> Nullable<Uuid>,
        enabled -> Bool,
        gravity -> Nullable<Double>,
        min_c -> Nullable<Double>,
        max_c -> Nullable<Double>,
        points -> Nullable<Double>,
        hours -> Nullable<Double>,
        minutes -> Nullable<Integer>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Alerts raised by the rules; `cleared_at` null while active.
    alerts (id) {
        id -> Uuid,
        user_id -> Uuid,
        rule_id -> Nullable<Uuid>,
        kind -> Text,
        session_id -> Uuid,
        device_id -> Nullable<Uuid>,
        raised_at -> Timestamptz,
        cleared_at -> Nullable<Timestamptz>,
        acknowledged_at -> Nullable<Timestamptz>,
        value -> Double,
        message -> Text,
    }
}

-- Built-in targets by beer: what to build a water towards with additions (kind 'target'),
-- beside the classic city waters (kind 'water'). The account's own profiles are 'water' unless
-- they say otherwise. A column with a constant default: instant.
ALTER TABLE water_profiles
    ADD COLUMN kind text NOT NULL DEFAULT 'water' CHECK (kind IN ('water', 'target'));

INSERT INTO water_profiles
    (id, user_id, kind, name, calcium, magnesium, sodium, sulfate, chloride, bicarbonate, ph, source,
     created_at, updated_at)
VALUES
    ('00000000-0000-7000-8000-00000000b001', NULL, 'target', 'Pale and hoppy', 110, 10, 15, 275, 60, 25, NULL,
     'Sulfate-forward (SO4:Cl about 4.6) with little alkalinity: pale ales, IPAs, bitters. wort''s own target, not a published profile: figures chosen by wort''s authors within the ranges brewing texts commonly give (calcium about 50-150 mg/L, magnesium and sodium low, sulfate favoured for hoppy beers and chloride for malty ones, bicarbonate rising with the share of dark malt), after the idea of naming targets by the beer''s colour and balance that Bru''n Water''s style targets use; the figures themselves are not Bru''n Water''s.',
     '2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000b002', NULL, 'target', 'Balanced', 70, 8, 15, 100, 90, 40, NULL,
     'Sulfate and chloride about equal: blonde and golden ales, pale beers of no strong lean. wort''s own target, not a published profile: figures chosen by wort''s authors within the ranges brewing texts commonly give (calcium about 50-150 mg/L, magnesium and sodium low, sulfate favoured for hoppy beers and chloride for malty ones, bicarbonate rising with the share of dark malt), after the idea of naming targets by the beer''s colour and balance that Bru''n Water''s style targets use; the figures themselves are not Bru''n Water''s.',
     '2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000b003', NULL, 'target', 'Malty', 60, 8, 20, 55, 120, 60, NULL,
     'Chloride-forward (SO4:Cl about 0.5): Scottish ales, Munich-style malty beers, milds. wort''s own target, not a published profile: figures chosen by wort''s authors within the ranges brewing texts commonly give (calcium about 50-150 mg/L, magnesium and sodium low, sulfate favoured for hoppy beers and chloride for malty ones, bicarbonate rising with the share of dark malt), after the idea of naming targets by the beer''s colour and balance that Bru''n Water''s style targets use; the figures themselves are not Bru''n Water''s.',
     '2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000b004', NULL, 'target', 'Amber', 60, 10, 20, 80, 80, 90, NULL,
     'Balanced, with some alkalinity for crystal and toasted malts: amber and red ales, Vienna and Maerzen. wort''s own target, not a published profile: figures chosen by wort''s authors within the ranges brewing texts commonly give (calcium about 50-150 mg/L, magnesium and sodium low, sulfate favoured for hoppy beers and chloride for malty ones, bicarbonate rising with the share of dark malt), after the idea of naming targets by the beer''s colour and balance that Bru''n Water''s style targets use; the figures themselves are not Bru''n Water''s.',
     '2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000b005', NULL, 'target', 'Dark and roasty', 60, 10, 30, 60, 90, 160, NULL,
     'Chloride-leaning, with the alkalinity that roasted malts'' acidity needs: porters, stouts, dark milds. wort''s own target, not a published profile: figures chosen by wort''s authors within the ranges brewing texts commonly give (calcium about 50-150 mg/L, magnesium and sodium low, sulfate favoured for hoppy beers and chloride for malty ones, bicarbonate rising with the share of dark malt), after the idea of naming targets by the beer''s colour and balance that Bru''n Water''s style targets use; the figures themselves are not Bru''n Water''s.',
     '2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z'),
    ('00000000-0000-7000-8000-00000000b006', NULL, 'target', 'Light lager', 40, 5, 5, 40, 50, 15, NULL,
     'Soft water, low in every ion: pilsners, helles, light lagers. wort''s own target, not a published profile: figures chosen by wort''s authors within the ranges brewing texts commonly give (calcium about 50-150 mg/L, magnesium and sodium low, sulfate favoured for hoppy beers and chloride for malty ones, bicarbonate rising with the share of dark malt), after the idea of naming targets by the beer''s colour and balance that Bru''n Water''s style targets use; the figures themselves are not Bru''n Water''s.',
     '2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z');

//! `extends` (issue 25): a variant file that states only what differs from another, checked
//! against the whole file it stands for; the errors of chains that cannot be resolved, each
//! named and placed; the diff that writes a variant as such a file and resolves back to it;
//! "did you mean" for unknown ids; and the citations `taisim variant patterns` shows.

use std::path::{Path, PathBuf};

use taisim_score::{PatternId, Variant, VariantError, VariantErrorKind, MAX_EXTENDS_DEPTH};

const TAIWAN16: &str = include_str!("../variants/taiwan16.toml");

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// taiwan16's shipped file with `edits` (each `from` must be there), named "t" with
/// description "d": the whole file an extending file stands for.
fn taiwan16_edited(edits: &[(&str, &str)]) -> Variant {
    let mut text = TAIWAN16
        .replace("name = \"taiwan16\"", "name = \"t\"")
        .replace(
            "description = \"Taiwanese 16-tile mahjong: taiwan16-common.txt's main table, read by the project README\"",
            "description = \"d\"",
        );
    for (from, to) in edits {
        assert!(text.contains(from), "taiwan16.toml has no {from:?}");
        text = text.replacen(from, to, 1);
    }
    Variant::from_toml_str(&text, "edited taiwan16.toml").unwrap()
}

#[test]
fn an_extending_file_is_its_base_with_the_changes_it_states() {
    // (the file's tables after `extends`, name and description; the edit of taiwan16.toml
    // that gives the same variant).
    let cases: [(&str, &[(&str, &str)]); 11] = [
        (
            "[patterns]\nall_chows = 3\n",
            &[("all_chows = 2 ", "all_chows = 3 ")],
        ),
        ("[tai]\nmax = 20\n", &[("max = 0\n", "max = 20\n")]),
        // A bare number is the tai: the base's exclusions stay.
        (
            "[patterns]\nconcealed_self_draw = 4\n",
            &[(
                "concealed_self_draw = { tai = 3,",
                "concealed_self_draw = { tai = 4,",
            )],
        ),
        // A table sets the keys it gives: the tai stays.
        (
            "[patterns]\nlittle_three_dragons = { excludes = [] }\n",
            &[(
                "little_three_dragons = { tai = 4, excludes = [\"dragon_pung\"] }",
                "little_three_dragons = 4",
            )],
        ),
        (
            "[patterns]\nseven_rob_one = false\n",
            &[(
                "seven_rob_one = { tai = 8, excludes = [\"eight_flowers\"] }\n",
                "",
            )],
        ),
        (
            "[patterns]\nno_flowers = 1\n",
            &[("heavenly_win = 24", "heavenly_win = 24\nno_flowers = 1")],
        ),
        (
            "[rules]\nreserve = 0\n",
            &[("reserve = 16 ", "reserve = 0 ")],
        ),
        (
            "[settlement]\ndealer_tai = 2\n",
            &[("dealer_tai = 1 ", "dealer_tai = 2 ")],
        ),
        (
            "[settlement]\ninsurance = [\"last_five\"]\n",
            &[("insurance = []", "insurance = [\"last_five\"]")],
        ),
        // Several tables at once, and a pattern both dropped and another added.
        (
            "[tai]\nmin = 1\n[patterns]\nall_chows = 3\nflower_kong = false\nno_honors = 1\n",
            &[
                ("min = 0 ", "min = 1 "),
                ("all_chows = 2 ", "all_chows = 3 "),
                ("flower_kong = 2 ", "# "),
                ("heavenly_win = 24", "heavenly_win = 24\nno_honors = 1"),
            ],
        ),
        // Nothing changed but the name.
        ("", &[]),
    ];
    for (tables, edits) in cases {
        let text = format!("extends = \"taiwan16\"\nname = \"t\"\ndescription = \"d\"\n{tables}");
        let resolved =
            Variant::resolve(&text, "t.toml").unwrap_or_else(|e| panic!("{tables}: {e}"));
        assert_eq!(resolved.variant, taiwan16_edited(edits), "{tables}");
        assert_eq!(resolved.extends.as_deref(), Some("taiwan16"));
        assert_eq!(
            *resolved.base.unwrap(),
            Variant::builtin("taiwan16").unwrap()
        );
        // The diff from its base says the same again.
        let diff = resolved
            .variant
            .diff_toml(&Variant::builtin("taiwan16").unwrap(), "taiwan16");
        assert_eq!(
            Variant::from_toml_str(&diff, "diff.toml").unwrap(),
            resolved.variant,
            "{diff}"
        );
    }
}

#[test]
fn a_chain_of_files_resolves_relative_to_each_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("house")).unwrap();
    write(
        dir.path(),
        "house/flat.toml",
        "extends = \"taiwan16\"\nname = \"flat\"\n[tai]\nmax = 20\n",
    );
    // `extends` is taken from house/, where flat.toml is, not from the current directory.
    let top = write(
        dir.path(),
        "house/flat-chows.toml",
        "extends = \"flat.toml\"\nname = \"flat-chows\"\n[patterns]\nall_chows = 3\n",
    );
    let resolved = Variant::resolve_name_or_path(top.to_str().unwrap()).unwrap();
    let v = &resolved.variant;
    assert_eq!(v.name(), "flat-chows");
    assert_eq!(v.max_tai(), Some(20));
    assert_eq!(v.pattern(PatternId::AllChows).unwrap().tai, 3);
    assert_eq!(resolved.layers.len(), 3);
    assert_eq!(resolved.layers[0].origin, "builtin:taiwan16");
    assert_eq!(resolved.base.as_ref().unwrap().name(), "flat");
    // Left out, the description says where the changes are.
    assert!(
        v.description().starts_with("flat with the changes in "),
        "{}",
        v.description()
    );
    // Citations: the file's own line first, then the base's (which has its rule-text line).
    let cites = resolved.citations(PatternId::AllChows);
    assert_eq!(cites.len(), 2);
    assert_eq!(
        (cites[0].origin.as_str(), cites[0].line),
        (top.to_str().unwrap(), 4)
    );
    assert_eq!(cites[1].origin, "builtin:taiwan16");
    assert!(cites[1].note.starts_with(":53"), "{:?}", cites[1]);
    assert!(resolved
        .sources()
        .contains(&"taiwan16-common.txt".to_string()));
}

/// What a case expects of the error's kind.
type Check = fn(&VariantErrorKind) -> bool;

/// A case: the file's name and text, then what its error must be: its kind, the file it
/// names (by file name) and the line there, and a phrase of its message.
type Case<'a> = (&'a str, &'a str, Check, &'a str, Option<usize>, &'a str);

#[test]
fn chains_that_cannot_be_resolved_are_named_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.toml", "extends = \"b.toml\"\nname = \"a\"\n");
    write(d, "b.toml", "extends = \"a.toml\"\nname = \"b\"\n");
    write(d, "self.toml", "extends = \"self.toml\"\nname = \"s\"\n");
    write(
        d,
        "broken.toml",
        "extends = \"taiwan16\"\nname = \"broken\"\n[tai\n",
    );
    write(
        d,
        "on-broken.toml",
        "extends = \"broken.toml\"\nname = \"x\"\n",
    );
    // A chain one file longer than the limit.
    for i in 0..=MAX_EXTENDS_DEPTH {
        write(
            d,
            &format!("deep{i}.toml"),
            &format!("extends = \"deep{}.toml\"\nname = \"d{i}\"\n", i + 1),
        );
    }
    write(
        d,
        &format!("deep{}.toml", MAX_EXTENDS_DEPTH + 1),
        "extends = \"taiwan16\"\nname = \"end\"\n",
    );

    let cases: [Case; 22] = [
        (
            "partial.toml",
            "name = \"t\"\nscoring = \"tai\"\n[tai]\nmax = 20\n[patterns]\nall_chows = 3\n",
            |k| matches!(k, VariantErrorKind::Partial(m) if *m == ["rules", "settlement"]),
            "partial.toml",
            None,
            "the file has no [rules], [settlement]: a variant file either states every table, or starts with extends = \"taiwan16\"",
        ),
        (
            "changes.toml",
            "[patterns]\nall_chows = 3\n",
            |k| matches!(k, VariantErrorKind::Partial(m) if m.len() == 4),
            "changes.toml",
            None,
            "extends = \"taiwan16\"",
        ),
        (
            "typo.toml",
            "extends = \"taiwan61\"\nname = \"t\"\n",
            |k| matches!(k, VariantErrorKind::MissingBase { .. }),
            "typo.toml",
            Some(1),
            "did you mean taiwan16?",
        ),
        (
            "nofile.toml",
            "name = \"t\"\nextends = \"nothere.toml\"\n",
            |k| matches!(k, VariantErrorKind::MissingBase { .. }),
            "nofile.toml",
            Some(2),
            "nothere.toml",
        ),
        (
            "cycle.toml",
            "extends = \"a.toml\"\nname = \"c\"\n",
            |k| matches!(k, VariantErrorKind::ExtendsCycle(c) if c.len() == 3),
            "b.toml",
            Some(1),
            "a.toml extends /",
        ),
        (
            "self-top.toml",
            "extends = \"self.toml\"\nname = \"c\"\n",
            |k| matches!(k, VariantErrorKind::ExtendsCycle(_)),
            "self.toml",
            Some(1),
            "self.toml extends",
        ),
        (
            "noname.toml",
            "extends = \"taiwan16\"\n[tai]\nmax = 20\n",
            |k| matches!(k, VariantErrorKind::ExtendingNeedsName),
            "noname.toml",
            None,
            "a name of its own",
        ),
        (
            "number.toml",
            "extends = 3\nname = \"t\"\n",
            |k| matches!(k, VariantErrorKind::ExtendsNotText),
            "number.toml",
            Some(1),
            "extends: must be a shipped variant's name",
        ),
        (
            "drop.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[patterns]\nno_flowers = false\n",
            |k| matches!(k, VariantErrorKind::NotInBase { pattern: "no_flowers", .. }),
            "drop.toml",
            Some(4),
            "but \"taiwan16\" does not count no_flowers",
        ),
        (
            "pongs.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[patterns]\nall_pongs = 5\n",
            |k| matches!(k, VariantErrorKind::UnknownPattern(id) if id == "all_pongs"),
            "pongs.toml",
            Some(4),
            "did you mean all_pungs?",
        ),
        (
            "type.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[rules]\nreserve = \"x\"\n",
            |k| matches!(k, VariantErrorKind::Syntax(_)),
            "type.toml",
            Some(4),
            "invalid type",
        ),
        (
            "bounds.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[tai]\nmin = 5\nmax = 3\n",
            |k| matches!(k, VariantErrorKind::MaxBelowMin { min: 5, max: 3 }),
            "bounds.toml",
            Some(5),
            "tai.max: max 3 is below min 5",
        ),
        (
            "base-broken.toml",
            "extends = \"on-broken.toml\"\nname = \"t\"\n",
            |k| matches!(k, VariantErrorKind::Syntax(_)),
            "broken.toml",
            Some(3),
            "",
        ),
        (
            "deep.toml",
            "extends = \"deep0.toml\"\nname = \"t\"\n",
            |k| matches!(k, VariantErrorKind::ExtendsTooDeep(_)),
            "",
            Some(1),
            "longer than 16 files",
        ),
        // A points base whose table the file drops: placed at the drop, not at the base's
        // `scoring`.
        (
            "no-points.toml",
            "extends = \"taizhou\"\nname = \"x\"\npoints = false\n",
            |k| {
                matches!(
                    k,
                    VariantErrorKind::PointsTable {
                        scoring_is_points: true
                    }
                )
            },
            "no-points.toml",
            Some(3),
            "needs a [points] table",
        ),
        // Unknown keys and tables, wherever they are, are placed at their line and listed
        // with the keys their table takes.
        (
            "typo-rule.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[rules]\nflower = false\n",
            |k| matches!(k, VariantErrorKind::UnknownKey { path, .. } if path == "rules.flower"),
            "typo-rule.toml",
            Some(4),
            "unknown key \"flower\" in [rules], expected one of `sets`, `flowers`, `reserve`, ",
        ),
        (
            "typo-table.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[pattern]\nconcealed_hand = 5\n",
            |k| matches!(k, VariantErrorKind::UnknownKey { path, .. } if path == "pattern"),
            "typo-table.toml",
            Some(3),
            "unknown key \"pattern\" at the top of the file, expected one of `extends`, `name`, `description`, `scoring`, `rules`, `tai`, `points`, `settlement`, `patterns`; did you mean patterns?",
        ),
        (
            "typo-entry.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[patterns]\nconcealed_hand = { tia = 5 }\n",
            |k| matches!(k, VariantErrorKind::UnknownKey { path, .. } if path == "patterns.concealed_hand.tia"),
            "typo-entry.toml",
            Some(4),
            "unknown key \"tia\" in [patterns.concealed_hand], expected one of `tai`, `hu`, `excludes`; did you mean tai?",
        ),
        (
            "typo-settle.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[settlement]\nbse = 1\n",
            |k| matches!(k, VariantErrorKind::UnknownKey { path, .. } if path == "settlement.bse"),
            "typo-settle.toml",
            Some(4),
            "in [settlement], expected one of `base`, `per_tai`, ",
        ),
        (
            "typo-procedure.toml",
            "extends = \"taiwan16\"\nname = \"t\"\n[rules.procedure.dealing]\nper_trun = 4\n",
            |k| matches!(k, VariantErrorKind::UnknownKey { path, .. } if path == "rules.procedure.dealing.per_trun"),
            "typo-procedure.toml",
            Some(4),
            "expected one of `per_turn`, `turns`; did you mean per_turn?",
        ),
        (
            "typo-whole.toml",
            &TAIWAN16.replace("missed_win = true", "flower = true\nmissed_win = true"),
            |k| matches!(k, VariantErrorKind::UnknownKey { path, .. } if path == "rules.flower"),
            "typo-whole.toml",
            Some(15),
            "did you mean flowers?",
        ),
        (
            "false.toml",
            &TAIWAN16.replace("all_chows = 2 ", "all_chows = false "),
            |k| matches!(k, VariantErrorKind::Syntax(_)),
            "false.toml",
            Some(59),
            "false drops a pattern only in a file that extends another",
        ),
    ];
    for (name, text, kind, file, line, phrase) in cases {
        let path = write(d, name, text);
        let e: VariantError = Variant::load(&path).unwrap_err();
        let message = e.to_string();
        assert!(kind(&e.kind), "{name}: {:?}", e.kind);
        if !file.is_empty() {
            assert_eq!(
                Path::new(&e.origin).file_name().unwrap(),
                file,
                "{name}: {message}"
            );
        }
        assert_eq!(e.line, line, "{name}: {message}");
        assert!(message.contains(phrase), "{name}: {message}");
    }
}

#[test]
fn every_shipped_variant_written_as_the_changes_from_another_resolves_back() {
    for base_name in Variant::names() {
        let base = Variant::builtin(base_name).unwrap();
        for name in Variant::names() {
            let v = Variant::builtin(name).unwrap();
            let diff = v.diff_toml(&base, base_name);
            let back = Variant::from_toml_str(&diff, "diff.toml")
                .unwrap_or_else(|e| panic!("{name} from {base_name}: {e}\n{diff}"));
            assert_eq!(back, v, "{name} from {base_name}:\n{diff}");
        }
        // From itself: nothing but what the file must say.
        assert_eq!(
            base.diff_toml(&base, base_name),
            format!(
                "extends = \"{base_name}\"\nname = \"{base_name}\"\ndescription = {:?}\n",
                base.description()
            )
        );
    }
    // taiwan16-house as the changes from taiwan16: its house table and nothing else.
    let house = Variant::builtin("taiwan16-house").unwrap();
    let diff = house.diff_toml(&Variant::builtin("taiwan16").unwrap(), "taiwan16");
    assert!(
        diff.contains("any_flower = 1  # 見花見台 Flower (new)"),
        "{diff}"
    );
    assert!(
        diff.contains("seat_flower = false  # 正花 Seat flower (dropped)"),
        "{diff}"
    );
    assert!(
        !diff.contains("[rules]") && !diff.contains("[settlement]"),
        "{diff}"
    );
}

#[test]
fn unknown_ids_in_a_whole_file_get_the_closest_known_ids() {
    let cases = [
        (
            "all_pungs = 4 ",
            "all_pongs = 4 ",
            "unknown pattern id \"all_pongs\"; did you mean all_pungs?",
        ),
        (
            "all_pungs = 4 ",
            "\"平胡\" = 4 ",
            "did you mean all_chows or chow_hand?",
        ),
        (
            "excludes = [\"dragon_pung\"] }   # :66",
            "excludes = [\"dragon_pong\"] }   # :66",
            "excludes unknown pattern id \"dragon_pong\"; did you mean dragon_pung?",
        ),
        (
            "all_pungs = 4 ",
            "zzzzzzzzzzzz = 4 ",
            "unknown pattern id \"zzzzzzzzzzzz\" (taisim variant patterns lists them)",
        ),
    ];
    for (from, to, phrase) in cases {
        let text = TAIWAN16.replacen(from, to, 1);
        let e = Variant::from_toml_str(&text, "my.toml").unwrap_err();
        assert!(e.to_string().contains(phrase), "{to}: {e}");
        assert!(e.line.is_some(), "{e}");
    }
    let e = Variant::by_name_or_path("taiwan16-hous").unwrap_err();
    assert!(
        e.to_string().contains("did you mean taiwan16-house?"),
        "{e}"
    );
    assert_eq!(e.kind.suggestions(), ["taiwan16-house"]);
}

#[test]
fn every_shipped_variant_cites_a_line_for_each_pattern_it_sets() {
    for name in Variant::names() {
        let resolved = Variant::resolve_name_or_path(name).unwrap();
        assert!(!resolved.sources().is_empty(), "{name} names no rule text");
        for (p, _) in resolved.variant.patterns() {
            let cites = resolved.citations(p);
            assert_eq!(cites.len(), 1, "{name}: {}", p.id());
            let text = Variant::builtin_text(name).unwrap();
            let at = text.lines().nth(cites[0].line - 1).unwrap();
            assert!(
                at.trim_start().starts_with(p.id()),
                "{name}: {} at {at}",
                p.id()
            );
        }
    }
}

/// The engine rules two variants differ in, by key, as `variant show --diff` writes them;
/// none between a variant and itself, nor for a change of patterns alone.
#[test]
fn rule_changes_name_each_engine_rule_that_differs() {
    let base = Variant::builtin("taiwan16").unwrap();
    let text = "extends = \"taiwan16\"\nname = \"r\"\n[rules]\nmissed_win = false\nrob_concealed_kong = true\n[rules.procedure]\ndice = \"two_rolls_of_two\"\n[patterns]\nall_chows = 5\n";
    let other = Variant::from_toml_str(text, "r.toml").unwrap();
    let changes: Vec<(String, String, String)> = base
        .rule_changes(&other)
        .into_iter()
        .map(|c| (c.key, c.from.to_string(), c.to.to_string()))
        .collect();
    let owned = |k: &str, a: &str, b: &str| (k.to_string(), a.to_string(), b.to_string());
    assert_eq!(
        changes,
        [
            owned("rules.missed_win", "true", "false"),
            owned(
                "rules.procedure.dice",
                "\"three_dice\"",
                "\"two_rolls_of_two\""
            ),
            owned("rules.rob_concealed_kong", "false", "true"),
        ]
    );
    assert!(base.rule_changes(&base).is_empty());
    let patterns_only = Variant::from_toml_str(
        "extends = \"taiwan16\"\nname = \"p\"\n[patterns]\nall_chows = 5\n",
        "p.toml",
    )
    .unwrap();
    assert!(base.rule_changes(&patterns_only).is_empty());
}

/// The scoring-table keys two variants differ in, by key: none between a variant and
/// itself, nor for a change of engine rules alone; a pattern by the part that differs, or
/// whole where one variant does not count it; a `[points]` table only one variant has.
#[test]
fn table_changes_name_each_scoring_key_that_differs() {
    let base = Variant::builtin("taiwan16").unwrap();
    let text = "extends = \"taiwan16\"\nname = \"t\"\n[tai]\nmin = 3\n[settlement]\nbase = 4\n[patterns]\nall_chows = { tai = 5, excludes = [\"self_draw\"] }\nhuman_win = false\n";
    let other = Variant::from_toml_str(text, "t.toml").unwrap();
    let changes = |a: &Variant, b: &Variant| -> Vec<(String, String, String)> {
        a.table_changes(b)
            .into_iter()
            .map(|c| (c.key, c.from.to_string(), c.to.to_string()))
            .collect()
    };
    let owned = |k: &str, a: &str, b: &str| (k.to_string(), a.to_string(), b.to_string());
    assert_eq!(
        changes(&base, &other),
        [
            owned("tai.min", "0", "3"),
            owned("settlement.base", "0", "4"),
            // The patterns in catalogue order.
            owned("patterns.human_win", "16", "false"),
            owned("patterns.all_chows.tai", "2", "5"),
            owned("patterns.all_chows.excludes", "[]", "[\"self_draw\"]"),
        ]
    );
    // Each way round.
    assert_eq!(
        changes(&other, &base)[2],
        owned("patterns.human_win", "false", "16")
    );
    assert!(base.table_changes(&base).is_empty());
    let rules_only = Variant::from_toml_str(
        "extends = \"taiwan16\"\nname = \"r\"\n[rules]\nmissed_win = false\n",
        "r.toml",
    )
    .unwrap();
    assert!(base.table_changes(&rules_only).is_empty());
    // A points variant against a tai one: `scoring` and the `[points]` table, whole.
    let taizhou = Variant::builtin("taizhou").unwrap();
    let across = changes(&base, &taizhou);
    assert_eq!(across[0], owned("scoring", "\"tai\"", "\"points\""));
    assert!(
        across.iter().any(|(k, a, _)| k == "points" && a == "false"),
        "{across:?}"
    );
}

/// An engine rule that `[rules]` breaks is named by its key at the key's own line, as the
/// errors of `[settlement]` and `[tai]` are, not at the `[rules]` header: in a file that
/// extends another and in a whole file.
#[test]
fn rules_errors_name_the_key_at_its_own_line() {
    let extending = |rules: &str| {
        format!("extends = \"taiwan16\"\nname = \"x\"\n[rules]\nmissed_win = true\n\n\n{rules}\n")
    };
    // (the file; the key, its line and the message's opening).
    let cases = [
        (
            extending("sets = 9"),
            "rules.sets",
            7,
            "x.toml:7: rules.sets: sets must be 1 to 5",
        ),
        (
            extending("reserve = 200"),
            "rules.reserve",
            7,
            "x.toml:7: rules.reserve: a reserve of 200 tiles",
        ),
        (
            TAIWAN16.replace("sets = 5", "sets = 9"),
            "rules.sets",
            10,
            "x.toml:10: rules.sets: sets must be 1 to 5",
        ),
        // A check of two keys, both in the file: the key its message is about.
        (
            TAIWAN16
                .replace("sets = 5", "sets = 4")
                .replace("eight_pairs = false", "eight_pairs = true"),
            "rules.eight_pairs",
            19,
            "x.toml:19: rules.eight_pairs: the special hands",
        ),
        (
            TAIWAN16.replace("flowers = true", "flowers = false"),
            "rules.flower_wins",
            18,
            "x.toml:18: rules.flower_wins: flower wins",
        ),
    ];
    for (text, key, line, opening) in cases {
        let e = Variant::from_toml_str(&text, "x.toml").unwrap_err();
        assert!(matches!(e.kind, VariantErrorKind::Rules(_)), "{e}");
        assert_eq!((e.key.as_str(), e.line), (key, Some(line)), "{e}");
        assert!(e.to_string().starts_with(opening), "{e}");
    }
}

/// A check that compares keys is placed at the one the most-derived file set, the file's
/// own key before its base's, and names the other key and where the base set it: a file of
/// one line over taizhou or taiwan16 is told of its own line, not of a shipped file's.
#[test]
fn a_check_of_several_keys_is_placed_in_the_file_that_set_one() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "capped.toml",
        "extends = \"taiwan16\"\nname = \"capped\"\n[tai]\nmax = 20\n",
    );
    let over = |base: &str, tables: &str| format!("extends = \"{base}\"\nname = \"x\"\n{tables}");
    // (the file; its key and line; the other key, the file that set it and its line; a
    // phrase of the message).
    let cases = [
        (
            over("taizhou", "[settlement]\nper_tai = 3\n"),
            ("settlement.per_tai", 4),
            ("settlement.model", "builtin:taizhou", 36),
            "per_tai must be even",
        ),
        (
            over("taizhou", "[settlement]\nbase = 5\n"),
            ("settlement.base", 4),
            ("settlement.model", "builtin:taizhou", 36),
            "base must be 0",
        ),
        (
            over("taizhou", "[settlement]\ndealer_tai = 1\n"),
            ("settlement.dealer_tai", 4),
            ("settlement.model", "builtin:taizhou", 36),
            "has no dealer tai",
        ),
        (
            over("taizhou", "scoring = \"tai\"\n"),
            ("scoring", 3),
            ("points", "builtin:taizhou", 8),
            "a [points] table needs scoring = \"points\"",
        ),
        (
            over(
                "taizhou",
                "scoring = \"tai\"\npoints = false\n[settlement]\nmodel = \"winner_pays\"\n",
            ),
            ("scoring", 3),
            ("patterns.all_pungs.hu", "builtin:taizhou", 49),
            "hu values need scoring = \"points\"",
        ),
        (
            over("taiwan16", "[settlement]\nmodel = \"all_pairs\"\n"),
            ("settlement.model", 4),
            ("scoring", "builtin:taiwan16", 7),
            "it needs scoring = \"points\"",
        ),
        (
            over("taiwan16", "[patterns]\nmiddle_wait = 1\n"),
            ("patterns.middle_wait", 4),
            ("patterns.concealed_hand", "builtin:taiwan16", 42),
            "this is one of the 台州 patterns",
        ),
        (
            over("taizhou", "[patterns]\nall_honors = 8\n"),
            ("patterns.all_honors", 4),
            ("patterns.plain_pair", "builtin:taizhou", 45),
            "this pattern cannot be counted beside the 台州 patterns",
        ),
        (
            over("taiwan16", "[rules.procedure]\ntiles = \"no_flowers\"\n"),
            ("rules.procedure.tiles", 4),
            ("rules.flowers", "builtin:taiwan16", 11),
            "flowers = true but the procedure's wall has 136 tiles",
        ),
        (
            over(
                "taiwan16",
                "[rules.procedure]\ndealing = { per_turn = 0, turns = 0 }\n",
            ),
            ("rules.procedure.dealing", 4),
            ("rules.sets", "builtin:taiwan16", 10),
            "dealing 0 turns of 0 tiles",
        ),
        (
            over(
                "taiwan16",
                "[rules]\nmissed_win = true\n\n\nflowers = false\n",
            ),
            ("rules.flowers", 7),
            ("rules.flower_wins", "builtin:taiwan16", 18),
            "flower wins (八仙過海, 七搶一) need flowers in the wall",
        ),
        (
            over("capped.toml", "[tai]\nmin = 25\n"),
            ("tai.min", 4),
            ("tai.max", "capped.toml", 4),
            "max 20 is below min 25",
        ),
    ];
    for (text, (key, line), (other, other_origin, other_line), phrase) in cases {
        let path = write(dir.path(), "x.toml", &text);
        let e = Variant::load(&path).unwrap_err();
        let at = (e.origin.as_str(), e.key.as_str(), e.line);
        assert_eq!(at, (path.to_str().unwrap(), key, Some(line)), "{e}");
        let with = e.with.as_ref().unwrap_or_else(|| panic!("{e}"));
        assert_eq!(with.key, other, "{e}");
        assert!(with.origin.ends_with(other_origin), "{e}");
        assert_eq!(with.line, other_line, "{e}");
        let message = e.to_string();
        assert!(message.contains(phrase), "{message}");
        assert!(
            message.starts_with(&format!("{}:{line}: {key}: ", path.display())),
            "{message}"
        );
        assert!(
            message.ends_with(&format!(
                " (with {other} set at {}:{other_line})",
                with.origin
            )),
            "{message}"
        );
    }
}

/// A value of the wrong type or past its type's range is named by its key, in the words the
/// loader's other errors use: out of bounds with the bounds, an unknown value with the
/// values the key takes, and numbers, lists and tables rather than `i64`, `u16` or
/// `struct`.
#[test]
fn a_value_of_the_wrong_type_or_range_names_its_key_in_plain_words() {
    let over = |tables: &str| format!("extends = \"taiwan16\"\nname = \"x\"\n{tables}");
    // (the file; its key and line; what the message says after `x.toml:LINE: KEY: `).
    let cases = [
        (
            over("[settlement]\nbase = \"three\"\n"),
            ("settlement.base", 4),
            "invalid type: string \"three\", expected a whole number",
        ),
        (
            over("[tai]\nmin = -2\n"),
            ("tai.min", 4),
            "-2 is out of bounds (must be 0 to 65535)",
        ),
        (
            over("[rules]\nready_window = 1000\n"),
            ("rules.ready_window", 4),
            "1000 is out of bounds (must be 0 to 255)",
        ),
        (
            over("[settlement]\nrobbed_flower_payer = \"nobody\"\n"),
            ("settlement.robbed_flower_payer", 4),
            "unknown value \"nobody\", expected one of `drawer`, `all`",
        ),
        (
            over("[settlement]\nmodel = \"all_pair\"\n"),
            ("settlement.model", 4),
            "unknown value \"all_pair\", expected one of `winner_pays`, `all_pairs`; did you mean all_pairs?",
        ),
        (
            over("[settlement]\nbase = 99999999999999999999999\n"),
            ("settlement.base", 4),
            "the number is too large for any key (a whole number is at most 9223372036854775807)",
        ),
        (
            over("[rules]\nmissed_win = true\nflowers = 1\n"),
            ("rules.flowers", 5),
            "invalid type: integer `1`, expected true or false",
        ),
        (
            over("[rules.procedure]\ndealing = { per_turn = -1, turns = 1 }\n"),
            ("rules.procedure.dealing.per_turn", 4),
            "-1 is out of bounds (must be 0 to 255)",
        ),
        (
            over("[patterns]\nall_chows = { tai = 3, excludes = \"self_draw\" }\n"),
            ("patterns.all_chows.excludes", 4),
            "invalid type: string \"self_draw\", expected a list",
        ),
        (
            over("[rules]\nprocedure = 4\n"),
            ("rules.procedure", 4),
            "invalid type: integer `4`, expected a table",
        ),
        // A whole file too.
        (
            TAIWAN16.replace("reserve = 16", "reserve = \"16\""),
            ("rules.reserve", 12),
            "invalid type: string \"16\", expected a whole number from 0 to 255",
        ),
        (
            TAIWAN16.replace("dealer_tai = 1", "dealer_tai = -1"),
            ("settlement.dealer_tai", 32),
            "-1 is out of bounds (must be 0 to 255)",
        ),
        // Past the type's range, a key the loader bounds more narrowly says the loader's
        // bound, as a value within the type's range does.
        (
            over("[settlement]\ndealer_tai_per_streak = 70000\n"),
            ("settlement.dealer_tai_per_streak", 4),
            "70000 is out of bounds (must be 0 to 255)",
        ),
        (
            over("[settlement]\ndealer_tai = 300\n"),
            ("settlement.dealer_tai", 4),
            "300 is out of bounds (must be 0 to 255)",
        ),
        (
            over("[settlement]\ndealer_tai = \"1\"\n"),
            ("settlement.dealer_tai", 4),
            "invalid type: string \"1\", expected a whole number from 0 to 255",
        ),
        (
            TAIWAN16.replace("per_tai = 1", "per_tai = -99999999999999999999"),
            ("settlement.per_tai", 31),
            "the number is too small for any key (a whole number is at least -9223372036854775808)",
        ),
    ];
    for (text, (key, line), said) in cases {
        let e = Variant::from_toml_str(&text, "x.toml").unwrap_err();
        assert_eq!((e.key.as_str(), e.line), (key, Some(line)), "{e}");
        assert_eq!(e.to_string(), format!("x.toml:{line}: {key}: {said}"));
    }
}

/// A name written as a path that is not there is a missing file, said as one; a bare name is
/// an unknown variant with the shipped names and a suggestion.
#[test]
fn a_missing_file_is_not_called_an_unknown_variant() {
    for path in ["./missing.toml", "missing.toml", "no/such/file"] {
        let e = Variant::find(path).unwrap_err();
        assert!(
            matches!(e.kind, VariantErrorKind::Unreadable { .. }),
            "{path}: {e}"
        );
        assert!(e.to_string().contains("cannot read"), "{path}: {e}");
    }
    // The file name of a shipped variant, or one near it, names the variant meant.
    for (path, meant) in [
        ("taiwan16.toml", "`taiwan16`"),
        ("./TAIZHOU.toml", "`taizhou`"),
        ("rules/taiwn16-house.toml", "`taiwan16-house`"),
    ] {
        let e = Variant::find(path).unwrap_err();
        assert!(
            e.to_string().ends_with(&format!(
                "(the shipped variants are named without a path or .toml: {meant})"
            )),
            "{path}: {e}"
        );
    }
    let e = Variant::find("./missing.toml").unwrap_err();
    assert!(!e.to_string().contains("shipped"), "{e}");
    let e = Variant::find("taiwn16").unwrap_err();
    assert!(matches!(e.kind, VariantErrorKind::UnknownVariant(_)), "{e}");
    assert!(e.to_string().contains("did you mean taiwan16"), "{e}");
}

//! `taisim variant show` (whole, `--diff`), `taisim variant patterns` for every shipped
//! variant and the whole catalogue, and the variant file errors of issue 25 (a partial file
//! without `extends`, an unknown id with "did you mean"), run as the real binary.

use std::path::Path;

use taisim_score::{PatternId, Variant};

mod support;
use support::{stderr, stdout, taisim, taisim_in};

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn show_prints_the_whole_variant_and_diff_only_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let flat = write(
        dir.path(),
        "flat.toml",
        "extends = \"taiwan16\"\nname = \"flat\"\n[tai]\nmax = 20\n[patterns]\nall_chows = 3\nflower_kong = false\n",
    );
    // A shipped variant prints as it always did.
    let o = taisim(&["variant", "show", "taiwan16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), Variant::builtin("taiwan16").unwrap().to_toml());

    // The whole variant: a file that parses alone to the resolved variant.
    let o = taisim(&["variant", "show", &flat]);
    assert!(o.status.success(), "{}", stderr(&o));
    let whole = stdout(&o);
    assert!(whole.starts_with("# "), "{whole}");
    assert!(!whole.contains("extends ="), "{whole}");
    let resolved = Variant::load(&flat).unwrap();
    assert_eq!(
        Variant::from_toml_str(&whole, "whole.toml").unwrap(),
        resolved
    );

    // Only the changes, as a file that extends taiwan16 and resolves to the same variant.
    let o = taisim(&["variant", "show", &flat, "--diff"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let diff = stdout(&o);
    for line in [
        "extends = \"taiwan16\"",
        "name = \"flat\"",
        "max = 20",
        "all_chows = 3  # 平胡 All chows (changed)",
        "flower_kong = false  # 花槓 Flower kong (dropped)",
    ] {
        assert!(diff.contains(line), "{line} not in\n{diff}");
    }
    assert!(
        !diff.contains("[rules]") && !diff.contains("self_draw"),
        "{diff}"
    );
    assert_eq!(Variant::from_toml_str(&diff, &flat).unwrap(), resolved);

    // --against any variant.
    let o = taisim(&[
        "variant",
        "show",
        "taiwan16-house",
        "--diff",
        "--against",
        "taiwan16",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("any_flower = 1"), "{}", stdout(&o));
    // A variant that extends nothing has nothing to diff against by itself.
    let o = taisim(&["variant", "show", "taiwan16", "--diff"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--against"), "{}", stderr(&o));
}

/// `--diff` of a file whose base is a file names that base by its absolute path, so the
/// printed file resolves back to the same variant wherever it is saved and whichever folder
/// taisim runs in (as written, `extends = "base.toml"` found it from house/ alone, and
/// `--against house/base.toml` from the folder taisim ran in alone); a shipped base stays a
/// name.
#[test]
fn a_diff_resolves_back_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("house")).unwrap();
    std::fs::create_dir_all(d.join("elsewhere")).unwrap();
    write(
        d,
        "house/base.toml",
        "extends = \"taiwan16\"\nname = \"base-house\"\n[patterns]\nconcealed_hand = 5\n",
    );
    let child = write(
        d,
        "house/child.toml",
        "extends = \"base.toml\"\nname = \"child\"\n[settlement]\nper_tai = 2\n",
    );
    let resolved = Variant::load(&child).unwrap();
    let base = std::fs::canonicalize(d.join("house/base.toml")).unwrap();
    let extends = format!("extends = {:?}\n", base.display().to_string());
    // (the command, run in the temporary folder; where its output is saved).
    let cases: [(&[&str], &str); 3] = [
        (
            &["variant", "show", "house/child.toml", "--diff"],
            "child-copy.toml",
        ),
        (
            &[
                "variant",
                "show",
                "house/child.toml",
                "--diff",
                "--against",
                "house/base.toml",
            ],
            "house/child-copy2.toml",
        ),
        (
            &["variant", "show", "child.toml", "--diff"],
            "elsewhere/child-copy3.toml",
        ),
    ];
    for (args, save) in cases {
        let at = if args[2] == "child.toml" {
            d.join("house")
        } else {
            d.to_path_buf()
        };
        let o = taisim_in(&at, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let diff = stdout(&o);
        assert!(diff.starts_with(&extends), "{args:?}:\n{diff}");
        let saved = write(d, save, &diff);
        assert_eq!(Variant::load(&saved).unwrap(), resolved, "{args:?}");
        // And read by taisim from another folder.
        let o = taisim_in(&d.join("elsewhere"), &["variant", "show", &saved]);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    // A shipped base stays a name.
    let o = taisim_in(d, &["variant", "show", "house/base.toml", "--diff"]);
    assert!(
        stdout(&o).starts_with("extends = \"taiwan16\"\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_variant_files_exit_2_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            write(dir.path(), "partial.toml", "name = \"x\"\nscoring = \"tai\"\n[patterns]\nall_chows = 3\n"),
            "the file has no [rules], [settlement]: a variant file either states every table, or starts with extends = \"taiwan16\"",
        ),
        (
            write(dir.path(), "typo.toml", "extends = \"taiwan16\"\nname = \"x\"\n[patterns]\nal_chows = 3\n"),
            "typo.toml:4: unknown pattern id \"al_chows\"; did you mean all_chows?",
        ),
        (
            write(dir.path(), "base.toml", "extends = \"taiwan61\"\nname = \"x\"\n"),
            "did you mean taiwan16?",
        ),
        // Unknown keys and tables: placed at their line, with the keys their table takes.
        (
            write(dir.path(), "typo-rule.toml", "extends = \"taiwan16\"\nname = \"x\"\n[rules]\nflower = false\n"),
            "typo-rule.toml:4: unknown key \"flower\" in [rules], expected one of `sets`, `flowers`,",
        ),
        (
            write(dir.path(), "typo-table.toml", "extends = \"taiwan16\"\nname = \"x\"\n[pattern]\nconcealed_hand = 5\n"),
            "typo-table.toml:3: unknown key \"pattern\" at the top of the file, expected one of `extends`, `name`,",
        ),
        (
            write(dir.path(), "typo-entry.toml", "extends = \"taiwan16\"\nname = \"x\"\n[patterns]\nconcealed_hand = { tia = 5 }\n"),
            "typo-entry.toml:4: unknown key \"tia\" in [patterns.concealed_hand], expected one of `tai`, `hu`, `excludes`; did you mean tai?",
        ),
    ];
    for (path, message) in cases {
        for args in [
            vec!["variant", "show", &path],
            vec!["variant", "patterns", &path],
            vec![
                "simulate",
                "--deals",
                "1",
                "--variant",
                &path,
                "--out",
                "/nonexistent/never",
            ],
        ] {
            let o = taisim(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        }
    }
    let o = taisim(&["variant", "patterns", "taiwan16-hous"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean taiwan16-house?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn patterns_lists_every_pattern_of_every_shipped_variant_with_its_citation() {
    for name in Variant::names() {
        let v = Variant::builtin(name).unwrap();
        let o = taisim(&["variant", "patterns", name, "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(doc["variant"], name);
        assert!(!doc["sources"].as_array().unwrap().is_empty(), "{name}");
        let listed = doc["patterns"].as_array().unwrap();
        assert_eq!(listed.len(), v.patterns().count(), "{name}");
        for (entry, (p, rule)) in listed.iter().zip(v.patterns()) {
            assert_eq!(entry["id"], p.id());
            assert_eq!(entry["name_zh"], p.name_zh());
            assert_eq!(entry["name_en"], p.name_en());
            assert_eq!(entry["tai"], rule.tai);
            assert_eq!(entry["hu"], v.pattern_hu(p));
            let excludes: Vec<&str> = entry["excludes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            for x in &excludes {
                let x = PatternId::from_id(x).unwrap();
                assert!(
                    rule.excludes & x.bit() != 0,
                    "{name}: {} excludes {}",
                    p.id(),
                    x.id()
                );
            }
            // Every exclusion of a pattern the variant counts (one it does not count drops
            // nothing, and is not listed).
            let counted = v.patterns().fold(0, |bits, (q, _)| bits | q.bit());
            assert_eq!(
                excludes.len() as u32,
                (rule.excludes & counted).count_ones(),
                "{name}: {}",
                p.id()
            );
            // The line it cites is the variant file's line that sets it.
            let cite = &entry["cites"][0];
            assert_eq!(cite["origin"], format!("builtin:{name}"));
            let line = cite["line"].as_u64().unwrap() as usize;
            let text = Variant::builtin_text(name).unwrap();
            assert!(
                text.lines().nth(line - 1).unwrap().starts_with(p.id()),
                "{name}: {}",
                p.id()
            );
        }
        // The table: a line per pattern, with its names and its cited line.
        let o = taisim(&["variant", "patterns", name]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let table = stdout(&o);
        for (p, _) in v.patterns() {
            let row = table
                .lines()
                .find(|l| l.split_whitespace().next() == Some(p.id()))
                .unwrap_or_else(|| panic!("{name}: no row for {}", p.id()));
            assert!(
                row.contains(p.name_zh()) && row.contains(p.name_en()),
                "{row}"
            );
            assert!(row.contains(&format!("{name}.toml:")), "{row}");
        }
    }
    // taiwan16's 平胡 cites taiwan16-common.txt line 53, as its file's comment says.
    let o = taisim(&["variant", "patterns", "taiwan16"]);
    let table = stdout(&o);
    let row = table.lines().find(|l| l.starts_with("all_chows ")).unwrap();
    assert!(row.contains("taiwan16.toml:59 :53 平胡"), "{row}");
    assert!(table.contains("taiwan16-common.txt"), "{table}");
}

#[test]
fn the_catalogue_lists_every_pattern_with_each_shipped_variants_value() {
    let o = taisim(&["variant", "patterns", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let patterns = doc["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), PatternId::COUNT);
    let variants: Vec<Variant> = Variant::names()
        .iter()
        .map(|n| Variant::builtin(n).unwrap())
        .collect();
    for (entry, &p) in patterns.iter().zip(PatternId::ALL) {
        assert_eq!(entry["id"], p.id());
        for v in &variants {
            let value = &entry["variants"][v.name()];
            match v.pattern(p) {
                Some(rule) => assert_eq!(value["tai"], rule.tai, "{} {}", v.name(), p.id()),
                None => assert!(value.is_null(), "{} {}", v.name(), p.id()),
            }
        }
    }
    let o = taisim(&["variant", "patterns"]);
    assert!(o.status.success());
    let table = stdout(&o);
    assert_eq!(table.lines().count(), 3 + PatternId::COUNT, "{table}");
    let row = table.lines().find(|l| l.starts_with("all_chows ")).unwrap();
    // taiwan16 2, taiwan16-house 2, taiwan16-2015 -, mahjongtime -, taizhou -.
    assert_eq!(
        row.split_whitespace().rev().take(5).collect::<Vec<_>>(),
        ["-", "-", "-", "2", "2"],
        "{row}"
    );
}

/// A file that drops a pattern (`half_flush = false`) does not list it among another's
/// exclusions (taiwan16's all_honors excludes half_flush), in the table or the JSON: an
/// exclusion of a pattern not counted drops nothing.
#[test]
fn patterns_does_not_list_a_dropped_pattern_among_exclusions() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "drop.toml",
        "extends = \"taiwan16\"\nname = \"drop\"\n[patterns]\nhalf_flush = false\n",
    );
    let o = taisim(&["variant", "patterns", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    let row = table
        .lines()
        .find(|l| l.starts_with("all_honors "))
        .unwrap_or_else(|| panic!("no all_honors row in\n{table}"));
    assert!(!row.contains("half_flush"), "{row}");
    assert!(
        !table.lines().any(|l| l.starts_with("half_flush ")),
        "{table}"
    );
    let o = taisim(&["variant", "patterns", &path, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let honors = doc["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "all_honors")
        .unwrap();
    assert_eq!(honors["excludes"], serde_json::json!([]));
}

//! "Did you mean": the known names closest to one that names nothing. A mistyped pattern id in
//! a variant file (`all_pongs`), a pattern written by its Chinese or English name (`平胡`,
//! `Half flush`) or a variant's name one letter off (`taiwan61`) gets the ids it most likely
//! meant in its error.

use crate::pattern::PatternId;

/// The most suggestions an error lists.
pub const MAX_SUGGESTIONS: usize = 3;

/// Edit distance (insertions, deletions, substitutions, and swaps of two neighbours) between
/// two short strings, by characters. The names compared are at most a few dozen characters,
/// so the quadratic table is nothing.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// `text` as an id would spell it: lower case, every run of other characters one `_`
/// (`"Half flush"` → `half_flush`).
fn as_id(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// Up to [`MAX_SUGGESTIONS`] of `candidates` closest to `unknown`, in the candidates'
/// order: those spelt the same but for case and separators, else those fewest edits away,
/// if that is within a few (about a third of the name's length, at least one, at most four).
/// Empty when nothing is close: a suggestion must be likely to help.
pub fn closest<'a>(unknown: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = as_id(unknown);
    let limit = (wanted.chars().count() / 3).clamp(1, 4);
    let mut scored: Vec<(usize, usize, &str)> = candidates
        .into_iter()
        .enumerate()
        .filter_map(|(order, c)| {
            let d = edit_distance(&wanted, &as_id(c));
            (d <= limit).then_some((d, order, c))
        })
        .collect();
    scored.sort_unstable();
    scored.dedup_by_key(|(_, _, c)| *c);
    let best = scored.first().map_or(0, |(d, _, _)| *d);
    scored.retain(|(d, _, _)| *d == best);
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, c)| c)
        .collect()
}

/// The pattern ids `unknown` most likely meant: the patterns whose Chinese or English name
/// it is (`平胡` → `all_chows`, `chow_hand`; `half flush` → `half_flush`), else the ids
/// closest to it by [`closest`] (`all_pongs` → `all_pungs`).
pub fn pattern_ids(unknown: &str) -> Vec<&'static str> {
    let trimmed = unknown.trim();
    let wanted = as_id(trimmed);
    let by_name: Vec<&'static str> = PatternId::ALL
        .iter()
        .filter(|p| p.name_zh() == trimmed || as_id(p.name_en()) == wanted)
        .map(|p| p.id())
        .take(MAX_SUGGESTIONS)
        .collect();
    if !by_name.is_empty() {
        return by_name;
    }
    closest(trimmed, PatternId::ALL.iter().map(|p| p.id()))
}

/// "; did you mean a, b or c?" for a message, or nothing when there is no suggestion.
pub fn did_you_mean(suggestions: &[&str]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        [rest @ .., last] => format!("; did you mean {} or {last}?", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_each_kind_of_edit() {
        // (a, b, distance): insert, delete, substitute, swap, nothing in common.
        let cases = [
            ("all_pungs", "all_pungs", 0),
            ("all_pongs", "all_pungs", 1),
            ("all_pung", "all_pungs", 1),
            ("all_pungss", "all_pungs", 1),
            ("all_pnugs", "all_pungs", 1),
            ("", "abc", 3),
            ("abc", "xyz", 3),
            ("平胡", "平和", 1),
        ];
        for (a, b, d) in cases {
            assert_eq!(edit_distance(a, b), d, "{a} → {b}");
            assert_eq!(edit_distance(b, a), d, "{b} → {a}");
        }
    }

    #[test]
    fn suggestions_for_mistyped_and_named_patterns() {
        // (what was written, the ids suggested, best first).
        let cases: [(&str, &[&str]); 8] = [
            ("all_pongs", &["all_pungs"]),
            ("ALL_PUNGS", &["all_pungs"]),
            ("selfdraw", &["self_draw"]),
            ("concealed_self_drawn", &["concealed_self_draw"]),
            ("平胡", &["all_chows", "chow_hand"]),
            ("Half flush", &["half_flush"]),
            ("full_flsh", &["full_flush"]),
            ("zzzzzzzz", &[]),
        ];
        for (written, expected) in cases {
            assert_eq!(pattern_ids(written), expected, "{written}");
        }
    }

    #[test]
    fn the_phrase_lists_the_suggestions() {
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(did_you_mean(&["a"]), "; did you mean a?");
        assert_eq!(did_you_mean(&["a", "b"]), "; did you mean a or b?");
        assert_eq!(did_you_mean(&["a", "b", "c"]), "; did you mean a, b or c?");
    }

    #[test]
    fn variant_names_one_letter_off_are_suggested() {
        let names = [
            "taiwan16",
            "taiwan16-house",
            "taiwan16-2015",
            "mahjongtime",
            "taizhou",
        ];
        assert_eq!(closest("taiwan61", names), ["taiwan16"]);
        assert_eq!(closest("taiwan16-hous", names), ["taiwan16-house"]);
        assert_eq!(closest("mahjong-time", names), ["mahjongtime"]);
        assert!(closest("riichi", names).is_empty());
    }
}

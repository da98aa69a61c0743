//! The schemas of a run's tables, described column by column for `taisim simulate --schema`.

use std::fmt::Write as _;

use arrow_schema::{DataType, SchemaRef};

use crate::part::Table;
use taisim_score::{ScoringModel, SettlementModel, Variant};

use crate::tables::{stem, DealsColumns, TaiColumns, WinsColumns, WinsLayout};

/// Every column a table may have, as `--schema` describes it: the deals table with its
/// `actions` column when `log_actions`, the wins table with the points model's columns.
pub fn schema(table: Table, log_actions: bool) -> SchemaRef {
    match table {
        Table::Deals => DealsColumns::schema(log_actions),
        Table::Wins => WinsColumns::schema(),
        Table::Tai => TaiColumns::schema(),
        Table::Decisions => crate::decisions::schema(),
    }
}

/// The exact schema a run of a winner-pays variant writes: [`schema`] less the wins table's
/// points columns unless the variant scores with the points model. [`variant_schema`] covers
/// every variant.
pub fn run_schema(table: Table, log_actions: bool, points_model: bool) -> SchemaRef {
    match table {
        Table::Wins => WinsColumns::schema_for(WinsLayout {
            points_model,
            all_pairs: false,
        }),
        _ => schema(table, log_actions),
    }
}

/// The exact schema a run of `variant` writes: [`schema`] less the wins table's optional
/// columns the variant does not call for (`hu`, `points` under the points model;
/// `responsible`, `value_*`, `pay_*` under all-pairs settlement).
pub fn variant_schema(table: Table, log_actions: bool, variant: &Variant) -> SchemaRef {
    match table {
        Table::Wins => WinsColumns::schema_for(wins_layout(variant)),
        _ => schema(table, log_actions),
    }
}

/// The wins table's optional column groups for a run of `variant`.
pub(crate) fn wins_layout(variant: &Variant) -> WinsLayout {
    WinsLayout {
        points_model: matches!(variant.scoring(), ScoringModel::Points { .. }),
        all_pairs: variant.settlement().model == SettlementModel::AllPairs,
    }
}

/// What a column holds. Per-seat columns are described once by their stem (`pay_*`).
fn describe(table: Table, column: &str) -> Option<&'static str> {
    if table == Table::Decisions {
        return crate::decisions::describe(column);
    }
    Some(match (table, stem(table, column)) {
        (_, "deal_id") => "the deal: i for independent deals; game * 65536 + deal for games",
        (Table::Deals, "game_id") => "the game (with --games), else null",
        (Table::Deals, "deal_in_game") => "the deal's number in its game from 0 (with --games), else null",
        (Table::Deals, "seed") => "the deal's wall seed: Deal::new(rules, seed, context) replays it",
        (Table::Deals, "variant") => "the variant's name (its file and hash are in the manifest)",
        (Table::Deals, "round_wind") => "圈風, E S W N",
        (Table::Deals, "dealer") => "the dealer's seat",
        (Table::Deals, "dealer_streak") => "連莊: deals the dealer has kept in a row",
        (Table::Deals, "outcome") => "self_draw, discard (robbing a kong included), flower_win, exhaustive_draw",
        (Table::Deals, "winners") => "winning seats in seat order (several only with 一砲多響), null on a draw",
        (Table::Deals, "n_winners") => "number of winners",
        (Table::Deals | Table::Wins, "discarder") => "who alone pays: the discarder, the robbed kong's or flower's owner; null otherwise",
        (Table::Deals | Table::Wins, "win_tile") => "the winning tile in notation (null for flower wins and draws)",
        (Table::Deals, "total_tai") => "sum of the winners' tai (dealer tai not included), null on a draw",
        (Table::Deals, "turns") => "discards made in the deal",
        (Table::Deals, "decisions") => "decisions taken by all seats (discards, claims, passes, wins)",
        (Table::Deals, "tiles_left") => "tiles left in the wall, the reserve included",
        (Table::Deals, "pay") => "the seat's net payment for the deal (sums to zero over the seats)",
        (Table::Deals, "flowers") => "flowers the seat showed",
        (Table::Deals, "chows") => "chows the seat claimed",
        (Table::Deals, "pungs") => "pungs the seat claimed (not later upgraded)",
        (Table::Deals, "kongs") => "kongs claimed from a discard (明槓)",
        (Table::Deals, "concealed_kongs") => "concealed kongs (暗槓)",
        (Table::Deals, "added_kongs") => "pungs upgraded to kongs (加槓)",
        (Table::Deals, "declared_ready") => "declared ready (天聽/地聽)",
        (Table::Deals, "shanten") => "shanten of the final hand: -1 for a winner, 0 ready, …",
        (Table::Deals, "actions") => "the deal's decisions in order, one byte each: the action-space index (taisim_agents::space)",
        (Table::Wins | Table::Tai, "winner") => "the winning seat",
        (Table::Wins, "total_tai") => "the hand's tai, the variant's limit applied, dealer tai not included; under the points model the 台 that doubles the hand (the n of 2^n)",
        (Table::Wins, "dealer_tai") => "莊家/連莊 tai added to payments between the dealer and another seat",
        (Table::Wins, "wait") => "the wait judged on the scoring reading: two_sided, edge, closed, single, double_pair, none",
        (Table::Wins, "reading") => "regular, eight_pairs (尼姑), thirteen_orphans, flower_win",
        (Table::Wins, "self_draw") => "自摸",
        (Table::Wins, "robbing_kong") => "搶槓",
        (Table::Wins, "kong_replacement") => "槓上開花: won on a kong's replacement tile",
        (Table::Wins, "flower_replacement") => "花上開花: won on a flower's replacement tile",
        (Table::Wins, "last_tile") => "海底撈月 / 河底撈魚",
        (Table::Wins, "heavenly") => "天胡",
        (Table::Wins, "earthly") => "地胡",
        (Table::Wins, "human") => "人胡",
        (Table::Wins, "flower_win") => "八仙過海 or 七搶一",
        (Table::Wins, "concealed") => "門清: no exposed meld (concealed kongs allowed)",
        (Table::Wins, "declared_ready") => "the winner had declared ready",
        (Table::Wins, "winner_is_dealer") => "the winner dealt",
        (Table::Wins, "meets_minimum") => "the total reaches the variant's minimum (起胡); if not, nobody pays",
        (Table::Wins, "capped") => "the variant's limit cut the total",
        (Table::Wins, "exposed_kong_replacement") => "won on the replacement for a kong claimed from a discard",
        (Table::Wins, "payment") => "what the winner received for this win",
        (Table::Wins, "hu") => "points variants only: the counted patterns' 胡, 底胡 not included",
        (Table::Wins, "points") => "points variants only: (底胡 + 胡) × 2^台, the variant's cap applied",
        (Table::Wins, "responsible") => "all-pairs variants only: the seat that pays for everyone (全包), null when none",
        (Table::Wins, "value") => "all-pairs variants only: the seat's value in the deal's settlement, one plain UInt64 column per seat (value_e … value_n); the winner's is its points, the 全包 seat's counts 0",
        (Table::Wins, "pay") => "all-pairs variants only: the seat's net payment for the deal in money, one plain Int64 column per seat (pay_e … pay_n, as in the deals table; sums to zero)",
        (Table::Wins, "n_patterns") => "patterns counted (rows in the tai table)",
        (Table::Wins, "n_melds") => "melds, concealed kongs included",
        (Table::Wins, "n_flowers") => "flowers held",
        (Table::Wins, "hand") => "the concealed tiles, the winning tile included, in notation",
        (Table::Wins, "melds") => "the melds, space-separated (pung:EEE chow:345m …)",
        (Table::Wins, "flowers") => "the flowers held (f1…f8)",
        (Table::Tai, "pattern") => "the pattern's stable id (taisim variant show NAME lists them)",
        (Table::Tai, "name") => "the pattern's Chinese name",
        (Table::Tai, "count") => "times it applies (正花 ×2, …)",
        (Table::Tai, "tai") => "tai it contributes",
        _ => return None,
    })
}

fn type_name(ty: &DataType) -> String {
    match ty {
        DataType::Dictionary(_, value) if **value == DataType::Utf8 => "string (dictionary)".into(),
        DataType::Utf8 => "string".into(),
        DataType::Binary => "binary".into(),
        other => format!("{other}").to_lowercase(),
    }
}

/// Every table's columns: name, type, nullability and meaning.
pub fn schema_text() -> String {
    let mut out = String::new();
    for table in [Table::Deals, Table::Wins, Table::Tai, Table::Decisions] {
        let _ = writeln!(out, "{}/part-NNNNN.parquet", table.dir());
        for field in schema(table, true).fields() {
            let _ = writeln!(
                out,
                "  {:<26} {:<20} {:<9} {}",
                field.name(),
                type_name(field.data_type()),
                if field.is_nullable() { "nullable" } else { "" },
                describe(table, field.name()).unwrap_or("")
            );
        }
        out.push('\n');
    }
    out.push_str(
        "The deals table's actions column is present only in runs made with --log-actions;\n\
         the wins table's hu and points columns only in runs of a points variant, and its\n\
         responsible, value_* and pay_* columns only in runs of an all-pairs variant (taizhou);\n\
         the decisions table only in runs made with --decisions.\n\
         A drawn deal of an all-pairs variant settles nothing and has no wins row.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_is_described() {
        for table in [Table::Deals, Table::Wins, Table::Tai, Table::Decisions] {
            for field in schema(table, true).fields() {
                assert!(
                    describe(table, field.name()).is_some(),
                    "{}.{} has no description",
                    table.dir(),
                    field.name()
                );
            }
        }
    }

    /// A misspelt name in the layout lists would quietly leave its column a dictionary.
    #[test]
    fn every_laid_out_name_is_a_column() {
        use crate::tables::{storage, Storage, LAYOUTS};
        for (table, layout, names) in LAYOUTS {
            let schema = schema(table, true);
            let stems: Vec<&str> = schema
                .fields()
                .iter()
                .map(|f| stem(table, f.name()))
                .collect();
            for name in names {
                assert!(
                    stems.contains(name),
                    "{}.{name} is not a column",
                    table.dir()
                );
            }
            for field in schema.fields() {
                let listed = names.contains(&stem(table, field.name()));
                if listed {
                    assert_eq!(storage(table, field.name()), layout, "{}", field.name());
                }
            }
        }
        assert_eq!(storage(Table::Deals, "pay_w"), Storage::Delta);
        assert_eq!(storage(Table::Wins, "win_tile"), Storage::Dictionary);
    }
}

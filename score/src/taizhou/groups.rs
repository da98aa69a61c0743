//! The sets and pair of one reading of a concealed hand with wilds, and the places its
//! winning tile can take.
//!
//! A decomposition ([`Decomposition`]) names its sets, its pair and the faces its wilds are
//! read as, not which tile sits where. Where the winning tile sits decides 嵌档 and whether
//! a pung it completes on a discard is concealed, and "不可单独使用" (README: every set and
//! the pair hold a tile that is not wild) must still hold with it there: a pair read as a
//! natural and a wild cannot give up its natural to a chow's middle and keep a real tile.

use arrayvec::ArrayVec;
use taisim_sim::algo::{Decomposition, Set, Wild};
use taisim_sim::Tile;

use super::super::reading::WaitShape;

/// The faces a physical tile may show: none for a wild; the wild kind's face or its own for
/// the stand-in (白板: "可以作为自身，也可以做为当前的得牌", README "白板"); its own otherwise.
#[inline]
pub(crate) fn faces_of(t: Tile, wild: Option<Wild>) -> ArrayVec<Tile, 2> {
    let mut out = ArrayVec::new();
    match wild {
        Some(w) if t == w.kind() => {}
        Some(w) if Some(t) == w.stand_in() => {
            out.push(w.kind());
            out.push(t);
        }
        _ => out.push(t),
    }
    out
}

/// A concealed hand's naturals by face and its wilds, in one reading.
#[derive(Copy, Clone)]
pub(crate) struct Naturals {
    pub faces: [u8; Tile::NUM],
    pub wilds: u8,
    /// Every set and the pair must hold a natural.
    pub needs_real: bool,
}

impl Naturals {
    /// The naturals of reading `d`: its sets' and pair's faces less those its wilds take
    /// (which faces the stand-ins show is the reading's).
    pub(crate) fn of_reading(d: &Decomposition, wild: Option<Wild>) -> Naturals {
        let faces = d.natural_faces();
        Naturals {
            faces,
            wilds: d.wilds.len() as u8,
            needs_real: wild.is_some_and(Wild::needs_real),
        }
    }
}

/// One concealed set or the pair, by face.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    Chow(Tile),
    Pung(Tile),
    Pair(Tile),
}

impl Group {
    /// The faces the group holds, one per slot.
    fn slots(self) -> ArrayVec<Tile, 3> {
        let mut out = ArrayVec::new();
        match self {
            Group::Chow(l) => {
                for k in 0..3 {
                    out.push(Tile::ALL[l.index() + k]);
                }
            }
            Group::Pung(f) => {
                for _ in 0..3 {
                    out.push(f);
                }
            }
            Group::Pair(f) => {
                out.push(f);
                out.push(f);
            }
        }
        out
    }
}

/// The groups of one decomposition: its sets in order, then the pair. Bound: five sets at
/// most (16-tile hands) and the pair.
pub(crate) struct Groups {
    list: ArrayVec<Group, 6>,
}

impl Groups {
    pub(crate) fn of(d: &Decomposition) -> Groups {
        let mut list = ArrayVec::new();
        for s in &d.sets {
            list.push(match *s {
                Set::Chow(l) => Group::Chow(l),
                Set::Pung(f) => Group::Pung(f),
            });
        }
        list.push(Group::Pair(d.pair));
        Groups { list }
    }

    /// Calls `f(holder, middle)` for each place the winning tile can take: `holder` indexes
    /// the decomposition's sets (the pair is `sets.len()`), `middle` says it sits in the
    /// middle of a chow. A natural winning tile (`win_face`) sits in a slot of its face; a
    /// wild one in a slot of a face some wild is read as (`wild_faces`). A place counts only
    /// if the rest of the hand still gives every set and the pair a natural.
    pub(crate) fn for_each_placement(
        &self,
        naturals: &Naturals,
        win_face: Option<Tile>,
        wild_faces: &[Tile],
        mut f: impl FnMut(usize, bool),
    ) {
        let mut seen: ArrayVec<(Group, Tile), 18> = ArrayVec::new();
        for (i, &g) in self.list.iter().enumerate() {
            for (k, &slot) in g.slots().iter().enumerate() {
                let fits = match win_face {
                    Some(w) => slot == w,
                    None => wild_faces.contains(&slot),
                };
                // Identical groups and slots of one face read the same.
                if !fits || seen.contains(&(g, slot)) {
                    continue;
                }
                seen.push((g, slot));
                let middle = matches!(g, Group::Chow(_)) && k == 1;
                if self.all_real(naturals, i, slot, win_face.is_some()) {
                    f(i, middle);
                }
            }
        }
    }

    /// Whether every group gets a natural with the winning tile in group `holder`'s slot of
    /// face `slot`: a natural winning tile is that group's real tile and is not available to
    /// others; a wild one takes the slot, so the holder's real tile must come from its other
    /// faces (a chow's) or its other slots (a pung's or the pair's).
    fn all_real(&self, naturals: &Naturals, holder: usize, slot: Tile, natural_win: bool) -> bool {
        if !naturals.needs_real || naturals.wilds == 0 {
            return true;
        }
        let mut avail = naturals.faces;
        if natural_win {
            avail[slot.index()] -= 1;
        }
        // Allowed faces per group, distinct.
        let mut allowed: ArrayVec<ArrayVec<Tile, 3>, 6> = ArrayVec::new();
        for (i, &g) in self.list.iter().enumerate() {
            let mut faces: ArrayVec<Tile, 3> = ArrayVec::new();
            if !(natural_win && i == holder) {
                let skip_slot = !natural_win && i == holder && matches!(g, Group::Chow(_));
                for s in g.slots() {
                    let taken = skip_slot && s == slot;
                    if !taken && !faces.contains(&s) {
                        faces.push(s);
                    }
                }
            }
            allowed.push(faces);
        }
        assign(&allowed, 0, &mut avail, natural_win.then_some(holder))
    }

    /// The wait shape of the placement, for the breakdown.
    pub(crate) fn wait_shape(
        &self,
        holder: usize,
        middle: bool,
        win_face: Option<Tile>,
    ) -> WaitShape {
        super::shape(self.list[holder], middle, win_face)
    }
}

/// Gives each group from `k` on a natural of an allowed face (the exempt group needs none).
/// At most six groups of three faces: a short search.
fn assign(
    allowed: &[ArrayVec<Tile, 3>],
    k: usize,
    avail: &mut [u8; Tile::NUM],
    exempt: Option<usize>,
) -> bool {
    if k == allowed.len() {
        return true;
    }
    if exempt == Some(k) {
        return assign(allowed, k + 1, avail, exempt);
    }
    for &face in &allowed[k] {
        let i = face.index();
        if avail[i] > 0 {
            avail[i] -= 1;
            let ok = assign(allowed, k + 1, avail, exempt);
            avail[i] += 1;
            if ok {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use taisim_sim::parse_tile;

    fn t(s: &str) -> Tile {
        parse_tile(s).unwrap()
    }

    /// The reading chow 2p-(wild)-4p and pair 3p + wild, the 3p won: the 3p may sit in the
    /// pair, not in the chow's middle, where the pair would be left two wilds. A wild won
    /// may take the chow's middle (the pair keeps its 3p).
    #[test]
    fn a_placement_keeps_every_group_real() {
        let mut sets = ArrayVec::new();
        sets.push(Set::Chow(t("2p")));
        let mut wilds = ArrayVec::new();
        wilds.push(t("3p"));
        wilds.push(t("3p"));
        let d = Decomposition {
            sets,
            pair: t("3p"),
            wilds,
        };
        let mut faces = [0u8; Tile::NUM];
        for f in ["2p", "3p", "4p"] {
            faces[t(f).index()] = 1;
        }
        let naturals = Naturals {
            faces,
            wilds: 2,
            needs_real: true,
        };
        let groups = Groups::of(&d);
        let mut seen = Vec::new();
        groups.for_each_placement(&naturals, Some(t("3p")), &d.wilds, |h, m| seen.push((h, m)));
        assert_eq!(seen, vec![(1, false)]);
        seen.clear();
        groups.for_each_placement(&naturals, None, &d.wilds, |h, m| seen.push((h, m)));
        assert_eq!(seen, vec![(0, true), (1, false)]);
        // Without the rule, the natural may take the middle too.
        let free = Naturals {
            needs_real: false,
            ..naturals
        };
        seen.clear();
        groups.for_each_placement(&free, Some(t("3p")), &d.wilds, |h, m| seen.push((h, m)));
        assert_eq!(seen, vec![(0, true), (1, false)]);
    }
}

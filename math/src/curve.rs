//! `Curve`: a 1D animation curve of keys (position, value, in and out tangents, continuity)
//! evaluated by cubic Hermite interpolation between neighbouring keys, with XNA's loop types
//! before the first key and after the last, and XNA's three ways to compute tangents (flat,
//! linear, smooth).
//!
//! Where xnagraph differs from MonoGame and FNA it follows XNA's documentation: `Linear` after
//! the last key extends along the last key's out tangent (they use the first key's), and a
//! `Step` key holds its value until the next key's position (they switch at position 1).

use crate::error::MathError;

/// XNA's `CurveLoopType`: how a curve continues outside its keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CurveLoopType {
    /// `Constant`: the end key's value.
    #[default]
    Constant,
    /// `Cycle`: the curve repeats.
    Cycle,
    /// `CycleOffset`: the curve repeats, each repetition shifted by the difference between
    /// the last and the first value, so it continues without a step.
    CycleOffset,
    /// `Oscillate`: the curve runs back and forth.
    Oscillate,
    /// `Linear`: a straight line along the end key's tangent.
    Linear,
}

/// XNA's `CurveContinuity`: how a key's segment reaches the next key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CurveContinuity {
    /// `Smooth`: Hermite interpolation using the tangents.
    #[default]
    Smooth,
    /// `Step`: the key's value, held until the next key.
    Step,
}

/// XNA's `CurveTangent`: what [`Curve::compute_tangent`] sets a tangent to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CurveTangent {
    /// `Flat`: zero.
    Flat,
    /// `Linear`: the difference to the neighbouring key's value.
    Linear,
    /// `Smooth`: the slope between the two neighbours, scaled by this side's share of the
    /// distance between them.
    Smooth,
}

/// XNA's `CurveKey`. Its position is fixed once made (XNA's is read-only, so a curve's keys
/// stay sorted); value, tangents and continuity may change.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CurveKey {
    position: f32,
    /// `Value`.
    pub value: f32,
    /// `TangentIn`: the slope arriving at the key, in value per segment.
    pub tangent_in: f32,
    /// `TangentOut`: the slope leaving the key, in value per segment.
    pub tangent_out: f32,
    /// `Continuity`.
    pub continuity: CurveContinuity,
}

impl CurveKey {
    /// `new CurveKey(position, value)`: flat tangents, smooth.
    pub const fn new(position: f32, value: f32) -> Self {
        Self::with_tangents(position, value, 0.0, 0.0, CurveContinuity::Smooth)
    }

    /// `new CurveKey(position, value, tangentIn, tangentOut, continuity)`.
    pub const fn with_tangents(
        position: f32,
        value: f32,
        tangent_in: f32,
        tangent_out: f32,
        continuity: CurveContinuity,
    ) -> Self {
        CurveKey { position, value, tangent_in, tangent_out, continuity }
    }

    /// `Position`.
    pub const fn position(&self) -> f32 {
        self.position
    }
}

/// XNA's `CurveKeyCollection`: the keys of a curve, kept sorted by position (a key added at an
/// existing position goes after the keys already there).
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CurveKeyCollection {
    keys: Vec<CurveKey>,
}

impl CurveKeyCollection {
    /// `Add(item)`: inserted in position order.
    pub fn add(&mut self, item: CurveKey) {
        let at = self.keys.partition_point(|k| k.position <= item.position);
        self.keys.insert(at, item);
    }

    /// `RemoveAt(index)`: an `ArgumentOutOfRangeException` (`index`) past the end.
    pub fn remove_at(&mut self, index: usize) -> Result<CurveKey, MathError> {
        if index >= self.keys.len() {
            return Err(MathError::ArgumentOutOfRange {
                param: "index",
                message: "no key at this index",
            });
        }
        Ok(self.keys.remove(index))
    }

    /// `Remove(item)`: whether a key equal to `item` was there (the first such is removed).
    pub fn remove(&mut self, item: &CurveKey) -> bool {
        match self.index_of(item) {
            Some(i) => {
                self.keys.remove(i);
                true
            }
            None => false,
        }
    }

    /// `IndexOf(item)`.
    pub fn index_of(&self, item: &CurveKey) -> Option<usize> {
        self.keys.iter().position(|k| k == item)
    }

    /// `Clear()`.
    pub fn clear(&mut self) {
        self.keys.clear();
    }

    /// `Count`.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// `Count == 0`.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// `this[index]`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<&CurveKey> {
        self.keys.get(index)
    }

    /// `this[index]` to change a key's value, tangents or continuity.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut CurveKey> {
        self.keys.get_mut(index)
    }

    /// The keys in position order.
    pub fn iter(&self) -> std::slice::Iter<'_, CurveKey> {
        self.keys.iter()
    }
}

/// XNA's `Curve`.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Curve {
    /// `PreLoop`: how the curve continues before its first key.
    pub pre_loop: CurveLoopType,
    /// `PostLoop`: how the curve continues after its last key.
    pub post_loop: CurveLoopType,
    /// `Keys`.
    pub keys: CurveKeyCollection,
}

impl Curve {
    /// `new Curve()`: no keys, constant at both ends.
    pub fn new() -> Self {
        Curve::default()
    }

    /// `IsConstant`: at most one key.
    pub fn is_constant(&self) -> bool {
        self.keys.len() <= 1
    }

    /// `Evaluate(position)`: 0 without keys, the key's value with one, else the Hermite
    /// segment holding `position` or the loop type's continuation outside the keys.
    pub fn evaluate(&self, position: f32) -> f32 {
        let keys = &self.keys.keys;
        let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
            return 0.0;
        };
        if keys.len() == 1 {
            return first.value;
        }
        let span = last.position - first.position;
        let (loop_type, before) = if position < first.position {
            (self.pre_loop, true)
        } else if position > last.position {
            (self.post_loop, false)
        } else {
            return self.segment_value(position);
        };
        // Whole cycles from the first key, rounded towards −∞.
        let cycle = ((position - first.position) / span).floor();
        let wrapped = position - cycle * span;
        match loop_type {
            CurveLoopType::Constant => {
                if before {
                    first.value
                } else {
                    last.value
                }
            }
            CurveLoopType::Linear => {
                if before {
                    first.value - first.tangent_in * (first.position - position)
                } else {
                    last.value + last.tangent_out * (position - last.position)
                }
            }
            CurveLoopType::Cycle => self.segment_value(wrapped),
            CurveLoopType::CycleOffset => {
                self.segment_value(wrapped) + cycle * (last.value - first.value)
            }
            CurveLoopType::Oscillate => {
                if cycle.rem_euclid(2.0) == 0.0 {
                    self.segment_value(wrapped)
                } else {
                    self.segment_value(last.position - (wrapped - first.position))
                }
            }
        }
    }

    /// The value at a position between the first and last keys.
    fn segment_value(&self, position: f32) -> f32 {
        let keys = &self.keys.keys;
        let next_index = keys.partition_point(|k| k.position < position).clamp(1, keys.len() - 1);
        let (prev, next) = (&keys[next_index - 1], &keys[next_index]);
        if prev.continuity == CurveContinuity::Step {
            return if position >= next.position { next.value } else { prev.value };
        }
        let gap = next.position - prev.position;
        if gap == 0.0 {
            return next.value;
        }
        let t = (position - prev.position) / gap;
        let (t2, t3) = (t * t, t * t * t);
        (2.0 * t3 - 3.0 * t2 + 1.0) * prev.value
            + (t3 - 2.0 * t2 + t) * prev.tangent_out
            + (3.0 * t2 - 2.0 * t3) * next.value
            + (t3 - t2) * next.tangent_in
    }

    /// `ComputeTangent(keyIndex, tangentInType, tangentOutType)`: sets one key's tangents from
    /// its neighbours (a missing neighbour counts as the key itself). An
    /// `ArgumentOutOfRangeException` (`keyIndex`) past the last key.
    pub fn compute_tangent(
        &mut self,
        key_index: usize,
        tangent_in_type: CurveTangent,
        tangent_out_type: CurveTangent,
    ) -> Result<(), MathError> {
        let keys = &mut self.keys.keys;
        if key_index >= keys.len() {
            return Err(MathError::ArgumentOutOfRange {
                param: "keyIndex",
                message: "no key at this index",
            });
        }
        let key = keys[key_index];
        let prev = if key_index > 0 { keys[key_index - 1] } else { key };
        let next = keys.get(key_index + 1).copied().unwrap_or(key);
        let (p0, p, p1) = (prev.position, key.position, next.position);
        let (v0, v, v1) = (prev.value, key.value, next.value);
        let span = p1 - p0;
        let smooth =
            |share: f32| if span.abs() <= f32::EPSILON { 0.0 } else { (v1 - v0) * (share / span) };
        let k = &mut keys[key_index];
        k.tangent_in = match tangent_in_type {
            CurveTangent::Flat => 0.0,
            CurveTangent::Linear => v - v0,
            CurveTangent::Smooth => smooth(p - p0),
        };
        k.tangent_out = match tangent_out_type {
            CurveTangent::Flat => 0.0,
            CurveTangent::Linear => v1 - v,
            CurveTangent::Smooth => smooth(p1 - p),
        };
        Ok(())
    }

    /// `ComputeTangents(tangentInType, tangentOutType)`: [`compute_tangent`](Self::compute_tangent)
    /// for every key, first to last.
    pub fn compute_tangents(
        &mut self,
        tangent_in_type: CurveTangent,
        tangent_out_type: CurveTangent,
    ) {
        for i in 0..self.keys.len() {
            // In range by construction.
            let _ = self.compute_tangent(i, tangent_in_type, tangent_out_type);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys (0, 0), (1, 2), (3, 2) with linear tangents: a straight rise then flat.
    fn ramp() -> Curve {
        let mut c = Curve::new();
        c.keys.add(CurveKey::new(3.0, 2.0));
        c.keys.add(CurveKey::new(0.0, 0.0));
        c.keys.add(CurveKey::new(1.0, 2.0));
        c.compute_tangents(CurveTangent::Linear, CurveTangent::Linear);
        c
    }

    #[test]
    fn keys_stay_sorted_and_equal_positions_go_last() {
        let mut c = ramp();
        assert_eq!(c.keys.iter().map(|k| k.position()).collect::<Vec<_>>(), [0.0, 1.0, 3.0]);
        c.keys.add(CurveKey::new(1.0, 7.0));
        assert_eq!(c.keys.get(2).map(|k| k.value), Some(7.0));
        assert!(c.keys.remove(&CurveKey::new(1.0, 7.0)) || c.keys.len() == 4);
        assert!(matches!(
            c.keys.remove_at(9),
            Err(MathError::ArgumentOutOfRange { param: "index", .. })
        ));
        assert!(!c.is_constant());
    }

    #[test]
    fn empty_and_single_key_curves_are_constant() {
        let mut c = Curve::new();
        assert_eq!(c.evaluate(5.0), 0.0);
        c.keys.add(CurveKey::new(2.0, 4.0));
        assert!(c.is_constant());
        assert_eq!(c.evaluate(-100.0), 4.0);
        assert_eq!(c.evaluate(100.0), 4.0);
    }

    #[test]
    fn linear_tangents_interpolate_a_straight_segment() {
        let c = ramp();
        assert_eq!(c.evaluate(0.0), 0.0);
        assert_eq!(c.evaluate(0.5), 1.0);
        assert_eq!(c.evaluate(1.0), 2.0);
        assert_eq!(c.evaluate(2.0), 2.0);
        assert_eq!(c.keys.get(1).map(|k| (k.tangent_in, k.tangent_out)), Some((2.0, 0.0)));
    }

    #[test]
    fn flat_and_smooth_tangents() {
        let mut c = ramp();
        c.compute_tangents(CurveTangent::Flat, CurveTangent::Flat);
        // Flat tangents: the smooth step 3t² − 2t³ at t = 0.25 is 0.15625, times 2.
        assert_eq!(c.evaluate(0.25), 0.3125);
        c.compute_tangent(1, CurveTangent::Smooth, CurveTangent::Smooth).unwrap();
        // Neighbours (0, 0) and (3, 2): slope 2/3 shared 1 : 2.
        let k = c.keys.get(1).unwrap();
        assert!(
            (k.tangent_in - 2.0 / 3.0).abs() < 1e-6 && (k.tangent_out - 4.0 / 3.0).abs() < 1e-6
        );
        assert!(matches!(
            c.compute_tangent(3, CurveTangent::Flat, CurveTangent::Flat),
            Err(MathError::ArgumentOutOfRange { param: "keyIndex", .. })
        ));
    }

    #[test]
    fn step_keys_hold_until_the_next_key() {
        let mut c = ramp();
        c.keys.get_mut(0).unwrap().continuity = CurveContinuity::Step;
        assert_eq!(c.evaluate(0.99), 0.0);
        assert_eq!(c.evaluate(1.0), 2.0);
    }

    #[test]
    fn loop_types_continue_outside_the_keys() {
        let mut c = ramp();
        assert_eq!((c.evaluate(-5.0), c.evaluate(10.0)), (0.0, 2.0));
        c.pre_loop = CurveLoopType::Cycle;
        c.post_loop = CurveLoopType::Cycle;
        assert_eq!(c.evaluate(3.5), 1.0);
        assert_eq!(c.evaluate(-2.5), 1.0);
        c.post_loop = CurveLoopType::CycleOffset;
        c.pre_loop = CurveLoopType::CycleOffset;
        assert_eq!(c.evaluate(3.5), 3.0);
        assert_eq!(c.evaluate(-2.5), -1.0);
        c.post_loop = CurveLoopType::Oscillate;
        c.pre_loop = CurveLoopType::Oscillate;
        // Second run goes backwards: 3.5 mirrors to 2.5 (flat part), 5.5 to 0.5.
        assert_eq!(c.evaluate(3.5), 2.0);
        assert_eq!(c.evaluate(5.5), 1.0);
        assert_eq!(c.evaluate(-0.5), 1.0);
        c.post_loop = CurveLoopType::Linear;
        c.pre_loop = CurveLoopType::Linear;
        c.keys.get_mut(2).unwrap().tangent_out = 0.5;
        assert_eq!(c.evaluate(5.0), 3.0);
        c.keys.get_mut(0).unwrap().tangent_in = 2.0;
        assert_eq!(c.evaluate(-1.0), -2.0);
    }
}

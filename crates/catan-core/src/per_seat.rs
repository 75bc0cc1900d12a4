//! A small inline per-seat array (3 or 4 entries) that serializes as a list.

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One value per seat, held inline so hot-path events do not allocate.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PerSeat<T: Copy + Default> {
    len: u8,
    items: [T; 4],
}

impl<T: Copy + Default> PerSeat<T> {
    /// `n` (at most 4) default values.
    pub fn new(n: usize) -> Self {
        PerSeat {
            len: n.min(4) as u8,
            items: [T::default(); 4],
        }
    }
    /// From a slice of at most 4 values (extra values are ignored).
    pub fn from_slice(s: &[T]) -> Self {
        let mut p = Self::new(s.len());
        for (i, v) in s.iter().take(4).enumerate() {
            p.items[i] = *v;
        }
        p
    }
    /// The values as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
    /// The values as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

impl<T: Copy + Default> std::ops::Index<usize> for PerSeat<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<T: Copy + Default> std::ops::IndexMut<usize> for PerSeat<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.as_mut_slice()[i]
    }
}

impl<T: Copy + Default + Serialize> Serialize for PerSeat<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>> Deserialize<'de> for PerSeat<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Default + Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = PerSeat<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of at most 4 values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PerSeat<T>, A::Error> {
                let mut p = PerSeat::new(0);
                while let Some(x) = seq.next_element::<T>()? {
                    if p.len as usize >= 4 {
                        return Err(serde::de::Error::custom("more than 4 seats"));
                    }
                    p.items[p.len as usize] = x;
                    p.len += 1;
                }
                Ok(p)
            }
        }
        d.deserialize_seq(V(std::marker::PhantomData))
    }
}

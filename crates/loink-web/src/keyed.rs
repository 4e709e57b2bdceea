//! A few values by name, in a vector: the page keeps at most a dozen models, four panels and a
//! gap map per model, where a B-tree map costs a few kilobytes of wasm for each value type.

/// Values by `&'static str` name, in insertion order (lookups are linear: n is small).
#[derive(Debug, Clone, PartialEq)]
pub struct Keyed<V> {
    entries: Vec<(&'static str, V)>,
}

impl<V> Default for Keyed<V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<V> Keyed<V> {
    /// The value named `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.entries.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The value named `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.entries
            .iter_mut()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    /// Whether a value is named `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets the value named `key` (replacing any).
    pub fn insert(&mut self, key: &'static str, value: V) {
        match self.get_mut(key) {
            Some(slot) => *slot = value,
            None => self.entries.push((key, value)),
        }
    }

    /// Removes the value named `key`.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        let at = self.entries.iter().position(|(k, _)| *k == key)?;
        Some(self.entries.remove(at).1)
    }

    /// The value named `key`, made by `make` when there is none.
    pub fn get_or_insert_with(&mut self, key: &'static str, make: impl FnOnce() -> V) -> &mut V {
        let at = match self.entries.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.entries.push((key, make()));
                self.entries.len() - 1
            }
        };
        &mut self.entries[at].1
    }

    /// The names, in the order they were first set.
    pub fn keys(&self) -> Vec<&'static str> {
        self.entries.iter().map(|(k, _)| *k).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_small_map() {
        let mut m = Keyed::default();
        m.insert("b", 2);
        m.insert("a", 1);
        m.insert("b", 3);
        assert_eq!(m.get("b"), Some(&3));
        assert_eq!(m.keys(), vec!["b", "a"]);
        *m.get_or_insert_with("c", || 4) += 1;
        assert_eq!(m.get("c"), Some(&5));
        assert_eq!(m.remove("a"), Some(1));
        assert!(!m.contains_key("a"));
    }
}

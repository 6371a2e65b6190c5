//! The games held in memory, by id. Idle ones are dropped past a soft limit; they reload from the
//! store when next asked for.

use crate::live::Live;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Live games kept in memory before idle ones are dropped.
const CACHE_SOFT_LIMIT: usize = 4096;

/// The games in memory.
#[derive(Debug, Default)]
pub struct GameCache {
    games: Mutex<HashMap<String, Arc<Live>>>,
}

impl GameCache {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game `id`, if it is in memory.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<Arc<Live>> {
        self.lock().get(id).cloned()
    }

    /// Keeps `live` as game `id`, unless another caller loaded it first: the one kept is returned.
    pub fn insert(&self, id: &str, live: Arc<Live>) -> Arc<Live> {
        let mut games = self.lock();
        if games.len() >= CACHE_SOFT_LIMIT {
            // Drop idle games: nobody holds them and nobody watches.
            games.retain(|_, l| Arc::strong_count(l) > 1 || l.tx.receiver_count() > 0);
        }
        Arc::clone(games.entry(id.to_string()).or_insert(live))
    }

    /// Every game in memory now.
    #[must_use]
    pub fn all(&self) -> Vec<Arc<Live>> {
        self.lock().values().cloned().collect()
    }
}

//! The three worked examples of the rule texts (RULES.md), as positions and moves, for
//! tests, rules screens and demonstrations. The texts show the boards only as pictures, so these
//! positions are ours, built to match every detail the texts give.

/// A worked example: a position, the move the text makes, and what it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkedExample {
    /// A short stable identifier, for catalogues of translated text.
    pub id: &'static str,
    /// The position before the move (N2).
    pub position: &'static str,
    /// The move (N1).
    pub mv: &'static str,
    /// The holes captured, from the last sown backwards (R4).
    pub captured_holes: &'static [&'static str],
    /// What the example teaches, in English.
    pub description: &'static str,
}

/// The rule texts' three worked examples, in the order the texts give them.
pub const WORKED_EXAMPLES: [WorkedExample; 3] = [
    WorkedExample {
        id: "seven-stones",
        position: "7,2,3,1,4,2/3,0,4,2,1,3 B 14 14",
        mv: "1B",
        captured_holes: &["2A"],
        description: "B sows the 7 stones of 1B; the last falls into the empty hole 2A, which B \
                      captures (R3, R4). 1A now holds 4 stones, so the chain stops there.",
    },
    WorkedExample {
        id: "twelve-stones",
        position: "2,0,0,12,1,3/2,1,3,0,2,1 B 16 17",
        mv: "4B",
        captured_holes: &["4B", "3B", "2B"],
        description: "B sows the 12 stones of 4B once round the ring; the starting hole is not \
                      skipped, so the last stone falls into 4B itself, now a single stone. B \
                      captures it and the single stones behind it in 3B and 2B (R3, R4).",
    },
    WorkedExample {
        id: "chain-across",
        position: "1,5,0,0,0,0/0,2,1,3,0,2 B 22 24",
        mv: "2B",
        captured_holes: &["1A", "6B", "5B", "4B", "3B"],
        description: "B sows the 5 stones of 2B; the last falls into the empty 1A. B captures it \
                      and, walking back across the rows, the single stones of 6B, 5B, 4B and 3B \
                      (R4: the chain crosses from one row to the other).",
    },
];

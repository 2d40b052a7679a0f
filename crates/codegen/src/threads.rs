//! The threads a description is read and generated on.

/// The stack of every thread that reads a description or generates from
/// it. Reading recurses with the document's nesting (bounded at 512 levels
/// by the readers), and so do typify, syn and prettyplease: a deeply nested
/// description must get a message, never overflow the stack. Only what is
/// touched of it is ever committed.
pub const STACK_SIZE: usize = 512 << 20;

/// `work`, on a thread of [`STACK_SIZE`]; its panic goes on on this one.
pub fn on_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, work)
            .expect("a thread can be started")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

//! OpenAPI's words that every stage reads: the methods a path item holds,
//! and the schema keywords that only annotate. One definition of each, so
//! that no two stages (the bundler, the walker, the model, the passes before
//! progenitor, spec-diff, the tests) can disagree; they did, when each kept
//! its own copy.

/// The keys of a path item that hold an operation, in the order OpenAPI's
/// Path Item Object lists them: the order operations are met in.
pub const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Schema keywords that only document: no value, and no value's form on
/// the wire, depends on them. The other annotations each mean something to
/// some stage ([`DEPRECATED`], [`DIRECTIONS`], [`XML`]), so each stage
/// names the ones it also sets aside.
pub const DOCUMENTATION: [&str; 7] = [
    "title",
    "description",
    "summary",
    "$comment",
    "example",
    "examples",
    "externalDocs",
];

/// An annotation of lifecycle: the client's types say it, spec-diff
/// reports it on its own.
pub const DEPRECATED: &str = "deprecated";

/// Annotations of direction: which of requests and responses a property
/// travels in, which decides the types each direction gets.
pub const DIRECTIONS: [&str; 2] = ["readOnly", "writeOnly"];

/// An annotation of the XML form: names and wrapping on the wire, for XML
/// bodies only.
pub const XML: &str = "xml";

/// A method a path item may hold; its discriminant is its index in
/// [`METHODS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Method {
    Get,
    Put,
    Post,
    Delete,
    Options,
    Head,
    Patch,
    Trace,
}

impl Method {
    /// Every method, in the order of [`METHODS`].
    pub const ALL: [Method; 8] = [
        Method::Get,
        Method::Put,
        Method::Post,
        Method::Delete,
        Method::Options,
        Method::Head,
        Method::Patch,
        Method::Trace,
    ];

    /// The HTTP method's name, as requests spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Head => "HEAD",
            Method::Patch => "PATCH",
            Method::Trace => "TRACE",
        }
    }

    /// The path item's key for the method (`get`, `head`, ...).
    pub fn key(self) -> &'static str {
        METHODS[self as usize]
    }

    /// The method of a path item's key (`get`, `head`, ...).
    pub fn from_key(key: &str) -> Option<Method> {
        let index = METHODS.iter().position(|method| *method == key)?;
        Some(Method::ALL[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_its_key_and_its_request_name() {
        for method in Method::ALL {
            assert_eq!(Method::from_key(method.key()), Some(method));
            assert_eq!(method.as_str().to_ascii_lowercase(), method.key());
        }
        assert_eq!(Method::from_key("GET"), None, "keys are lower case");
        assert_eq!(Method::from_key("parameters"), None);
    }
}

//! The license the generated crates state: `info.license` when it is an
//! SPDX expression, nothing otherwise (a guess would be a legal statement).

/// The SPDX expression of `info.license`: its `identifier` (OpenAPI 3.1),
/// else its `name` when that is written as an SPDX expression (`MIT`,
/// `Apache-2.0 OR MIT`); a name such as "Apache 2.0" is not one, and the
/// crates then state no license.
pub fn spdx_license(identifier: Option<&str>, name: Option<&str>) -> Option<String> {
    let is_expression = |text: &str| {
        let words: Vec<&str> = text.split(' ').collect();
        !text.is_empty()
            && words.iter().enumerate().all(|(index, word)| {
                if index % 2 == 1 {
                    matches!(*word, "AND" | "OR" | "WITH")
                } else {
                    !word.is_empty()
                        && word.starts_with(|c: char| c.is_ascii_alphanumeric())
                        && word
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '+'))
                        && word.chars().any(|c| c.is_ascii_alphabetic())
                }
            })
            && words.len() % 2 == 1
    };
    identifier
        .or(name)
        .map(str::trim)
        .filter(|text| is_expression(text))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn licenses_are_spdx_expressions_or_nothing() {
        assert_eq!(spdx_license(None, Some("MIT")).as_deref(), Some("MIT"));
        assert_eq!(
            spdx_license(Some("Apache-2.0"), Some("Apache 2.0")).as_deref(),
            Some("Apache-2.0")
        );
        assert_eq!(
            spdx_license(None, Some("Apache-2.0 OR MIT")).as_deref(),
            Some("Apache-2.0 OR MIT")
        );
        assert_eq!(spdx_license(None, Some("Apache 2.0")), None);
        assert_eq!(spdx_license(None, Some("Proprietary, see terms")), None);
        assert_eq!(spdx_license(None, None), None);
    }
}

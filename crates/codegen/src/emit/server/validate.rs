//! Renders the model's request-body [`Check`]s as the crate's private
//! `validate` module: one function per schema a request body reaches. The
//! generated code has `value: &Value` (the runtime's JSON tree, borrowing
//! from the body), `at: &Location` (where in the body the value is, spelled
//! out only when a rule is broken) and `out: &mut Violations` in scope, and
//! calls the rule checks of `openapi_crates_runtime::checks`.

use proc_macro2::{Delimiter, Ident, TokenStream, TokenTree};
use quote::{format_ident, quote};
use serde_json::Value;

use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::ApiModel;
use crate::model::validation::{
    Additional, ArrayCheck, Bound, Check, Contains, Evaluated, NumberCheck, ObjectCheck,
    StringCheck,
};
use crate::naming;

/// The validator function of component schema `schema`.
pub(super) fn validator_ident(schema: &str) -> Ident {
    naming::ident(&naming::method_name(&naming::type_name(schema)))
}

pub(super) fn validate_module(model: &ApiModel) -> TokenStream {
    let parameter_checks =
        super::params::check_functions(model.operations.iter().chain(&model.webhooks));
    if model.validators.is_empty() && parameter_checks.is_empty() {
        return quote!();
    }
    let runtime = crate_ident(RUNTIME_CRATE);
    let functions = model.validators.iter().map(|validator| {
        let ident = validator_ident(&validator.schema);
        let doc = format!(" Checks a value against the `{}` schema.", validator.schema);
        let checks = if validator.check.is_any() {
            quote!(let _ = (value, at, out);)
        } else {
            render(&validator.check)
        };
        quote! {
            #[doc = #doc]
            pub(crate) fn #ident(value: &Value, at: &Location, out: &mut Violations) {
                #checks
            }
        }
    });
    quote! {
        /// Checks of request bodies against the spec's schemas, one function per
        /// schema a request body uses.
        mod validate {
            use #runtime::checks::{self as check, Location, Violations};
            use #runtime::json::Value;

            #(#functions)*

            #(#parameter_checks)*
        }
    }
}

pub(super) fn render(check: &Check) -> TokenStream {
    match check {
        Check::Any => quote!(),
        Check::Never => quote!(check::not_allowed(at, out);),
        Check::Schema(name) => {
            let ident = validator_ident(name);
            quote!(#ident(value, at, out);)
        }
        Check::All(checks) => {
            let checks = checks.iter().map(render);
            quote!(#(#checks)*)
        }
        Check::Object(object) => render_object(object, Entry::Strict),
        Check::Array(array) => render_array(array, Entry::Strict),
        Check::String(string) => render_string(string, Entry::Strict),
        Check::Number(number) => render_number(number, Entry::Strict),
        Check::Boolean => quote!(check::expect_boolean(value, at, out);),
        Check::IfType(check) => match &**check {
            Check::Object(object) => render_object(object, Entry::Lenient),
            Check::Array(array) => render_array(array, Entry::Lenient),
            Check::String(string) => render_string(string, Entry::Lenient),
            Check::Number(number) => render_number(number, Entry::Lenient),
            other => render(other),
        },
        Check::Values(values) => {
            let texts = values.iter().map(Value::to_string);
            quote! {
                {
                    static ALLOWED: ::std::sync::LazyLock<check::AllowedValues> =
                        ::std::sync::LazyLock::new(|| check::AllowedValues::new(&[#(#texts),*]));
                    check::allowed_value(value, &ALLOWED, at, out);
                }
            }
        }
        Check::Not(excluded) => {
            let passes = passes(excluded);
            quote! {
                let excluded = #passes;
                if excluded {
                    check::excluded_shape(at, out);
                }
            }
        }
        Check::Conditional {
            condition,
            then,
            otherwise,
        } => {
            let passes = passes(condition);
            let branches = either(quote!(holds), render(then), render(otherwise));
            quote! {
                let holds = #passes;
                #branches
            }
        }
        Check::UnevaluatedProperties { evaluated, rest } => {
            render_unevaluated(evaluated, rest, Members::Properties)
        }
        Check::UnevaluatedItems { evaluated, rest } => {
            render_unevaluated(evaluated, rest, Members::Items)
        }
        Check::Discriminated { property, mapping } => {
            let keys = mapping.iter().map(|(key, _)| key);
            let arms = mapping.iter().map(|(key, schema)| {
                let ident = validator_ident(schema);
                quote!(#key => #ident(value, at, out),)
            });
            quote! {
                if let Some(object) = check::expect_object(value, at, out) {
                    match object.get(#property) {
                        Some(Value::String(kind)) => match kind.as_ref() {
                            #(#arms)*
                            other => check::one_of_values(other, &[#(#keys),*], &at.property(#property), out),
                        },
                        _ => check::required_string(object, at, #property, out),
                    }
                }
            }
        }
        Check::Alternatives {
            exactly_one,
            variants,
        } => {
            let attempts = variants.iter().map(passes);
            let (broken, expectation) = if *exactly_one {
                (quote!(matched != 1), "exactly one")
            } else {
                (quote!(matched == 0), "at least one")
            };
            quote! {
                let matched = [#(#attempts),*].into_iter().filter(|ok| *ok).count();
                if #broken {
                    check::shape_mismatch(at, #expectation, out);
                }
            }
        }
        Check::WithMessage { check, message } => {
            let checks = render(check);
            quote! {
                let mut broken = Violations::new();
                {
                    let out = &mut broken;
                    #checks
                }
                out.add_with_message(broken, #message);
            }
        }
        // A `match`, not `if !value.is_null() { if let .. }`, which clippy
        // would ask to collapse.
        // `null` alone (a oneOf's `{type: "null"}` branch).
        Check::Nullable(check) if **check == Check::Never => quote! {
            if !value.is_null() {
                check::not_allowed(at, out);
            }
        },
        Check::Nullable(check) => {
            let checks = render(check);
            quote! {
                match value {
                    Value::Null => {}
                    value => { #checks }
                }
            }
        }
    }
}

/// Whether a value not of the check's JSON type is refused (`type` says
/// it) or let through (keywords without a `type`, [`Check::IfType`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Strict,
    Lenient,
}

impl Entry {
    /// The expression giving the value as its JSON type (an `Option`),
    /// from the runtime's `expect_*` (strict) or the value's own `as_*`.
    fn read(self, strict: TokenStream, lenient: TokenStream) -> TokenStream {
        match self {
            Entry::Strict => quote!(check::#strict(value, at, out)),
            Entry::Lenient => lenient,
        }
    }

    /// The statement when nothing but the type is checked.
    fn type_only(self, strict: TokenStream) -> TokenStream {
        match self {
            Entry::Strict => quote!(check::#strict(value, at, out);),
            Entry::Lenient => quote!(),
        }
    }
}

/// An expression: whether the value at hand passes `check`, whose
/// violations are dropped.
fn passes(check: &Check) -> TokenStream {
    let checks = render(check);
    quote!({
        let out = &mut Violations::new();
        #checks
        out.is_empty()
    })
}

/// `if condition { body }`. A body that is one `if` is joined to the
/// condition (`if a && let ..`), as clippy asks of nested `if`s.
fn guarded(condition: TokenStream, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return quote!();
    }
    match single_if(&body) {
        Some(rest) => quote!(if #condition && #rest),
        None => quote!(if #condition { #body }),
    }
}

/// `if condition { then } else { otherwise }`, either side possibly empty.
fn either(condition: TokenStream, then: TokenStream, otherwise: TokenStream) -> TokenStream {
    match (then.is_empty(), otherwise.is_empty()) {
        (_, true) => guarded(condition, then),
        (true, false) => guarded(quote!(!#condition), otherwise),
        (false, false) if single_if(&otherwise).is_some() => {
            quote!(if #condition { #then } else #otherwise)
        }
        (false, false) => quote!(if #condition { #then } else { #otherwise }),
    }
}

/// When `tokens` are one `if` without `else` (and so without `;` or a
/// second statement around it), the tokens after its `if`.
fn single_if(tokens: &TokenStream) -> Option<TokenStream> {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let is_ident =
        |tree: &TokenTree, name: &str| matches!(tree, TokenTree::Ident(ident) if ident == name);
    let single = tokens.first().is_some_and(|first| is_ident(first, "if"))
        && tokens.iter().filter(|tree| is_ident(tree, "if")).count() == 1
        && !tokens.iter().any(|tree| {
            is_ident(tree, "else")
                || matches!(tree, TokenTree::Punct(punct) if punct.as_char() == ';' || punct.as_char() == '|')
        })
        && matches!(tokens.last(), Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace);
    single.then(|| tokens.into_iter().skip(1).collect())
}

/// A block expression: whether `subject` (a `&str`) matches `pattern`,
/// compiled once into a static.
fn pattern_matches(pattern: &str, subject: TokenStream) -> TokenStream {
    let compile = match crate::model::pattern::to_regex(pattern) {
        Some(translated) => quote!(check::Pattern::translated(#pattern, #translated)),
        None => quote!(check::Pattern::new(#pattern)),
    };
    quote!({
        static PATTERN: ::std::sync::LazyLock<check::Pattern> =
            ::std::sync::LazyLock::new(|| #compile);
        PATTERN.matches(#subject)
    })
}

fn render_object(object: &ObjectCheck, entry: Entry) -> TokenStream {
    let mut before = Vec::new();
    if let Some(min) = object.min_properties {
        before.push(quote!(check::min_properties(object, #min, at, out);));
    }
    if let Some(max) = object.max_properties {
        before.push(quote!(check::max_properties(object, #max, at, out);));
    }
    if !object.required.is_empty() {
        let required = &object.required;
        before.push(quote!(check::required(object, at, &[#(#required),*], out);));
    }
    for (name, required) in &object.dependent_required {
        before.push(quote!(check::dependent_required(object, at, #name, &[#(#required),*], out);));
    }
    let mut after = Vec::new();
    let known = &object.known;
    if object.patterns.is_empty() {
        match &object.additional {
            Additional::Allowed => {}
            Additional::Forbidden => {
                after.push(quote!(check::no_other_properties(object, at, &[#(#known),*], out);));
            }
            Additional::Checked(extra) => {
                let inner = render(extra);
                after.push(quote! {
                    for (name, value) in object {
                        if ![#(#known),*].contains(&name) {
                            let at = &at.property(name);
                            #inner
                        }
                    }
                });
            }
        }
    } else {
        after.push(render_patterns(object));
    }
    if let Some(names) = &object.property_names {
        let fits = passes(names);
        after.push(quote! {
            for name in object.keys() {
                let fits = {
                    let value = &Value::String(name.into());
                    #fits
                };
                if !fits {
                    check::property_name(&at.property(name), out);
                }
            }
        });
    }
    for (name, dependent) in &object.dependent_schemas {
        after.push(guarded(
            quote!(object.contains_key(#name)),
            render(dependent),
        ));
    }
    after.retain(|tokens| !tokens.is_empty());
    let read = entry.read(quote!(expect_object), quote!(value.as_object()));
    // One optional property and nothing else to check: nesting its `if let`
    // inside the object's would be a collapsible `if` to clippy.
    if let [(name, property)] = object.properties.as_slice()
        && before.is_empty()
        && after.is_empty()
    {
        let inner = render(property);
        return quote! {
            if let Some(object) = #read
                && let Some(value) = object.get(#name)
            {
                let at = &at.property(#name);
                #inner
            }
        };
    }
    let properties = object.properties.iter().map(|(name, property)| {
        let inner = render(property);
        quote! {
            if let Some(value) = object.get(#name) {
                let at = &at.property(#name);
                #inner
            }
        }
    });
    let checks: Vec<TokenStream> = before.into_iter().chain(properties).chain(after).collect();
    if checks.is_empty() {
        entry.type_only(quote!(expect_object))
    } else {
        quote! {
            if let Some(object) = #read {
                #(#checks)*
            }
        }
    }
}

/// `patternProperties`, with `additionalProperties` for the names no
/// pattern matches.
fn render_patterns(object: &ObjectCheck) -> TokenStream {
    let additional_checked = !matches!(object.additional, Additional::Allowed);
    let mut body = Vec::new();
    let mut matched = Vec::new();
    for (index, (pattern, check)) in object.patterns.iter().enumerate() {
        if check.is_any() && !additional_checked {
            continue;
        }
        let flag = format_ident!("matches_{index}");
        let test = pattern_matches(pattern, quote!(name));
        body.push(quote!(let #flag = #test;));
        if !check.is_any() {
            let inner = render(check);
            body.push(quote! {
                if #flag {
                    let at = &at.property(name);
                    #inner
                }
            });
        }
        matched.push(flag);
    }
    let known = &object.known;
    let unmatched = if known.is_empty() {
        quote!(#(!#matched)&&*)
    } else {
        quote!(![#(#known),*].contains(&name) #(&& !#matched)*)
    };
    match &object.additional {
        Additional::Allowed => {}
        Additional::Forbidden => body.push(quote! {
            if #unmatched {
                check::additional_property(&at.property(name), out);
            }
        }),
        Additional::Checked(extra) => {
            let inner = render(extra);
            body.push(quote! {
                if #unmatched {
                    let at = &at.property(name);
                    #inner
                }
            });
        }
    }
    if body.is_empty() {
        return quote!();
    }
    let uses_value = matches!(object.additional, Additional::Checked(_))
        || object.patterns.iter().any(|(_, check)| !check.is_any());
    if uses_value {
        quote!(for (name, value) in object { #(#body)* })
    } else {
        quote!(for name in object.keys() { #(#body)* })
    }
}

fn render_array(array: &ArrayCheck, entry: Entry) -> TokenStream {
    let mut checks = Vec::new();
    if let Some(min) = array.min_items {
        checks.push(quote!(check::min_items(items, #min, at, out);));
    }
    if let Some(max) = array.max_items {
        checks.push(quote!(check::max_items(items, #max, at, out);));
    }
    if array.unique {
        checks.push(quote!(check::unique_items(items, at, out);));
    }
    match &array.contains {
        None => {}
        Some(Contains {
            check: contains,
            min: 1,
            max: None,
        }) if contains.is_any() => {
            // Any item will do: the list must only have one.
            checks.push(quote! {
                if items.is_empty() {
                    check::no_item_matches(at, out);
                }
            });
        }
        Some(Contains {
            check: contains,
            min: 1,
            max: None,
        }) => {
            let inner = render(contains);
            checks.push(quote! {
                let matched = items.iter().any(|value| {
                    let out = &mut Violations::new();
                    #inner
                    out.is_empty()
                });
                if !matched {
                    check::no_item_matches(at, out);
                }
            });
        }
        Some(Contains {
            check: contains,
            min,
            max,
        }) => {
            let count = if contains.is_any() {
                quote!(items.len())
            } else {
                let inner = render(contains);
                quote! {
                    items
                        .iter()
                        .filter(|value| {
                            let out = &mut Violations::new();
                            #inner
                            out.is_empty()
                        })
                        .count()
                }
            };
            checks.push(quote!(let matched = #count;));
            if *min > 0 {
                checks.push(quote!(check::min_contains(matched, #min, at, out);));
            }
            if let Some(max) = max {
                checks.push(quote!(check::max_contains(matched, #max, at, out);));
            }
        }
    }
    for (position, check) in array.prefix.iter().enumerate() {
        if check.is_any() {
            continue;
        }
        let inner = render(check);
        let item = if position == 0 {
            quote!(items.first())
        } else {
            quote!(items.get(#position))
        };
        checks.push(quote! {
            if let Some(value) = #item {
                let at = &at.item(#position);
                #inner
            }
        });
    }
    if !array.items.is_any() {
        let inner = render(&array.items);
        let enumerated = match array.prefix.len() {
            0 => quote!(items.iter().enumerate()),
            skipped => quote!(items.iter().enumerate().skip(#skipped)),
        };
        checks.push(quote! {
            for (position, value) in #enumerated {
                let at = &at.item(position);
                #inner
            }
        });
    }
    let read = entry.read(quote!(expect_array), quote!(value.as_array()));
    if checks.is_empty() {
        entry.type_only(quote!(expect_array))
    } else {
        quote! {
            if let Some(items) = #read {
                #(#checks)*
            }
        }
    }
}

fn render_string(string: &StringCheck, entry: Entry) -> TokenStream {
    let mut checks = Vec::new();
    if let Some(allowed) = &string.allowed {
        checks.push(quote!(check::one_of_values(text, &[#(#allowed),*], at, out);));
    }
    if let Some(min) = string.min_length {
        checks.push(quote!(check::min_length(text, #min, at, out);));
    }
    if let Some(max) = string.max_length {
        checks.push(quote!(check::max_length(text, #max, at, out);));
    }
    if let Some(format) = &string.format {
        checks.push(quote!(check::format(text, #format, at, out);));
    }
    if let Some(pattern) = &string.pattern {
        let compile = match crate::model::pattern::to_regex(pattern) {
            Some(translated) => quote!(check::Pattern::translated(#pattern, #translated)),
            None => quote!(check::Pattern::new(#pattern)),
        };
        checks.push(quote! {
            {
                static PATTERN: ::std::sync::LazyLock<check::Pattern> =
                    ::std::sync::LazyLock::new(|| #compile);
                check::pattern(text, &PATTERN, at, out);
            }
        });
    }
    let read = entry.read(quote!(expect_string), quote!(value.as_str()));
    if checks.is_empty() {
        entry.type_only(quote!(expect_string))
    } else {
        quote! {
            if let Some(text) = #read {
                #(#checks)*
            }
        }
    }
}

fn render_number(number: &NumberCheck, entry: Entry) -> TokenStream {
    let expect = if number.integer {
        quote!(expect_integer)
    } else {
        quote!(expect_number)
    };
    let bound = |bound: &Option<Bound>, inclusive: &str, exclusive: &str| {
        bound.map(
            |Bound {
                 value,
                 exclusive: strict,
                 exact,
             }| {
                let check = format_ident!("{}", if strict { exclusive } else { inclusive });
                match exact {
                    // Past 2^53: the value's own digits against the bound's.
                    Some(exact) => {
                        let exact = proc_macro2::Literal::i128_unsuffixed(exact);
                        let check = format_ident!("{check}_exact");
                        quote!(check::#check(value, number, #exact, at, out);)
                    }
                    None => quote!(check::#check(number, #value, at, out);),
                }
            },
        )
    };
    let checks: Vec<TokenStream> = [
        bound(&number.minimum, "minimum", "exclusive_minimum"),
        bound(&number.maximum, "maximum", "exclusive_maximum"),
        number
            .multiple_of
            .map(|divisor| quote!(check::multiple_of(number, #divisor, at, out);)),
        number.format.as_ref().map(|format| {
            let name = &format.name;
            let min = proc_macro2::Literal::i128_unsuffixed(format.min);
            let max = proc_macro2::Literal::i128_unsuffixed(format.max);
            quote!(check::integer_format(value, number, #name, (#min, #max), at, out);)
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    let read = entry.read(expect.clone(), quote!(check::as_number(value)));
    if checks.is_empty() {
        entry.type_only(expect)
    } else {
        quote! {
            if let Some(number) = #read {
                #(#checks)*
            }
        }
    }
}

/// Which members an `unevaluated*` check is about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Members {
    Properties,
    Items,
}

/// `unevaluatedProperties` or `unevaluatedItems`: the conditions of the
/// subschemas that evaluate only when they apply are checked once, before
/// the members are visited.
fn render_unevaluated(evaluated: &Evaluated, rest: &Additional, members: Members) -> TokenStream {
    let uses_value = matches!(rest, Additional::Checked(_)) || has_matching(evaluated);
    let rest = match (rest, members) {
        (Additional::Allowed, _) => return quote!(),
        (Additional::Forbidden, Members::Properties) => {
            quote!(check::unevaluated_property(at, out);)
        }
        (Additional::Forbidden, Members::Items) => quote!(check::unevaluated_item(at, out);),
        (Additional::Checked(check), _) => render(check),
    };
    let mut conditions = Vec::new();
    let test = evaluated_test(evaluated, &mut conditions).map(|(test, _)| test);
    match members {
        Members::Properties => {
            let body = match test {
                Some(test) => quote! {
                    let evaluated = #test;
                    if !evaluated {
                        let at = &at.property(name);
                        #rest
                    }
                },
                None => quote! {
                    let at = &at.property(name);
                    #rest
                },
            };
            let each = if uses_value {
                quote!(for (name, value) in object)
            } else {
                quote!(for name in object.keys())
            };
            quote! {
                if let Some(object) = value.as_object() {
                    #(#conditions)*
                    #each {
                        #body
                    }
                }
            }
        }
        Members::Items => {
            let body = match test {
                Some(test) => quote! {
                    let evaluated = #test;
                    if !evaluated {
                        #rest
                    }
                },
                None => rest,
            };
            let each = if uses_value {
                quote!(for (position, value) in items.iter().enumerate())
            } else {
                quote!(for position in 0..items.len())
            };
            quote! {
                if let Some(items) = value.as_array() {
                    #(#conditions)*
                    #each {
                        let at = &at.item(position);
                        #body
                    }
                }
            }
        }
    }
}

fn has_matching(evaluated: &Evaluated) -> bool {
    match evaluated {
        Evaluated::Matching(_) => true,
        Evaluated::When { evaluated, .. } => has_matching(evaluated),
        Evaluated::Union(parts) => parts.iter().any(has_matching),
        _ => false,
    }
}

/// The expression telling whether the member at hand (`name`, or
/// `position` and `value`) was evaluated, and whether it is an `||` or
/// `&&` (to be parenthesized inside another); `None` when nothing is. The
/// conditions of [`Evaluated::When`] become `let evaluated_N = ..;`
/// statements in `conditions`.
fn evaluated_test(
    evaluated: &Evaluated,
    conditions: &mut Vec<TokenStream>,
) -> Option<(TokenStream, bool)> {
    match evaluated {
        Evaluated::Everything => Some((quote!(true), false)),
        Evaluated::Names(names) => Some((quote!([#(#names),*].contains(&name)), false)),
        Evaluated::Patterns(patterns) => {
            let tests: Vec<TokenStream> = patterns
                .iter()
                .map(|pattern| pattern_matches(pattern, quote!(name)))
                .collect();
            Some((quote!(#(#tests)||*), tests.len() > 1))
        }
        Evaluated::Prefix(length) => Some((quote!(position < #length), false)),
        Evaluated::Matching(check) => Some((passes(check), false)),
        Evaluated::When {
            condition,
            evaluated,
        } => {
            let flag = format_ident!("evaluated_{}", conditions.len());
            let passes = passes(condition);
            conditions.push(quote!(let #flag = #passes;));
            match &**evaluated {
                Evaluated::Everything => Some((quote!(#flag), false)),
                inner => {
                    let (test, compound) = evaluated_test(inner, conditions)?;
                    let test = if compound { quote!((#test)) } else { test };
                    Some((quote!(#flag && #test), true))
                }
            }
        }
        Evaluated::Union(parts) => {
            let tests: Vec<(TokenStream, bool)> = parts
                .iter()
                .filter_map(|part| evaluated_test(part, conditions))
                .collect();
            match tests.len() {
                0 => None,
                1 => tests.into_iter().next(),
                _ => {
                    let tests =
                        tests.into_iter().map(
                            |(test, compound)| {
                                if compound { quote!((#test)) } else { test }
                            },
                        );
                    Some((quote!(#(#tests)||*), true))
                }
            }
        }
    }
}

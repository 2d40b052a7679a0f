//! The public API of the crates `openapi-crates-codegen` emits for one version of
//! the spec, read from the emitted code itself: the types crate's structs
//! (their public fields with the wire name and Rust type of each), enums
//! (their variants), newtypes and aliases; the client's builder arguments
//! per method; the server's response variants with their payloads. What
//! the report says of types, fields, variants and builder arguments comes
//! from here, so it names what `cargo xtask codegen` writes, never a guess
//! at typify's or progenitor's naming.

use std::collections::BTreeMap;

use openapi_crates_codegen::load::LoadedSpec;
use syn::{
    Fields, FnArg, GenericArgument, ImplItem, Item, PathArguments, Type, TypeParamBound,
    WherePredicate,
};

/// One type of the types crate.
#[derive(Clone)]
pub enum TypeDef {
    Struct(Vec<Field>),
    /// `pub struct Name(Inner)`: a constrained value, or a one-member union.
    Newtype(Type),
    Enum(Vec<Variant>),
    /// `pub type Name = Target`.
    Alias(Type),
}

/// A public field of a struct (or of a struct-like variant).
#[derive(Clone)]
pub struct Field {
    /// The Rust name, e.g. `type_`.
    pub name: String,
    /// The name on the wire (`#[serde(rename)]`, else the Rust name).
    pub wire: String,
    pub ty: Type,
}

/// A variant of a generated enum.
#[derive(Clone)]
pub struct Variant {
    pub name: String,
    /// The value it stands for on the wire (`#[serde(rename)]`), if written.
    pub wire: Option<String>,
    pub payload: Payload,
}

#[derive(Clone)]
pub enum Payload {
    Unit,
    Tuple(Vec<Type>),
    Struct(Vec<Field>),
}

impl Payload {
    /// The payload as the report writes it: empty, `(T)` or `{ a: T, .. }`.
    pub fn shown(&self) -> String {
        match self {
            Payload::Unit => String::new(),
            Payload::Tuple(types) => {
                let types: Vec<String> = types.iter().map(show).collect();
                format!("({})", types.join(", "))
            }
            Payload::Struct(fields) => fields_shown(fields),
        }
    }

    /// The types the payload mentions.
    pub fn types(&self) -> Vec<&Type> {
        match self {
            Payload::Unit => Vec::new(),
            Payload::Tuple(types) => types.iter().collect(),
            Payload::Struct(fields) => fields.iter().map(|field| &field.ty).collect(),
        }
    }
}

fn fields_shown(fields: &[Field]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .map(|field| format!("{}: {}", field.name, show(&field.ty)))
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

/// A builder argument of a client method: what its setter takes, and
/// whether the builder holds it as an `Option`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Argument {
    pub takes: String,
    pub optional: bool,
}

impl Argument {
    /// The argument's type as the report writes it.
    pub fn signature(&self) -> String {
        if self.optional {
            format!("Option<{}>", self.takes)
        } else {
            self.takes.clone()
        }
    }
}

/// The public API of one version's generated crates.
#[derive(Clone, Default)]
pub struct Emitted {
    /// The types crate's top-level types, by Rust name.
    pub types: BTreeMap<String, TypeDef>,
    /// Each client method's builder arguments, by setter name.
    pub arguments: BTreeMap<String, BTreeMap<String, Argument>>,
    /// Each server response enum's variants with their payloads as shown
    /// (a shared response's struct spelled out with its fields).
    pub responses: BTreeMap<String, BTreeMap<String, String>>,
}

impl Emitted {
    /// The API of the crates generated from `spec` (loaded as the
    /// generator loads it: a 3.1 document lowered), or why there is none:
    /// the generator refuses the document, or its output does not parse.
    pub fn of(spec: &LoadedSpec) -> Result<Emitted, String> {
        // The runtime by a path: its vendored copy is not read here.
        let options = openapi_crates_codegen::Options {
            crate_prefix: Some("spec-diff".into()),
            strict: false,
            ..openapi_crates_codegen::Options::project()
        };
        // The generator answers every input with code or a diagnostic; a
        // panic of one of its libraries on an odd description must not
        // take the review down with it, which then models the version
        // from the document.
        let generated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            openapi_crates_codegen::generate_spec(spec.clone(), &options)
        }))
        .map_err(|_| "the generator panicked".to_string())?
        .map_err(|diagnostics| diagnostics.to_string())?;
        let file = |suffix: &str| -> Result<syn::File, String> {
            let text = generated
                .files
                .iter()
                .find(|file| file.path.ends_with(suffix))
                .map(|file| file.contents.as_str())
                .ok_or_else(|| format!("the generator wrote no {suffix}"))?;
            syn::parse_file(text).map_err(|err| format!("{suffix} does not parse: {err}"))
        };
        let mut emitted = Emitted::default();
        emitted.read_types(&file("spec-diff-types/src/lib.rs")?);
        emitted.read_client(&file("spec-diff-client/src/lib.rs")?);
        emitted.read_server(&file("spec-diff-server/src/lib.rs")?);
        Ok(emitted)
    }

    fn read_types(&mut self, file: &syn::File) {
        for item in &file.items {
            match item {
                Item::Struct(item) => {
                    let name = item.ident.to_string();
                    let def = match &item.fields {
                        Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                            TypeDef::Newtype(fields.unnamed[0].ty.clone())
                        }
                        Fields::Named(fields) => TypeDef::Struct(public_fields(&fields.named)),
                        _ => TypeDef::Struct(Vec::new()),
                    };
                    self.types.insert(name, def);
                }
                Item::Enum(item) => {
                    let variants = item
                        .variants
                        .iter()
                        .map(|variant| Variant {
                            name: variant.ident.to_string(),
                            wire: serde_rename(&variant.attrs),
                            payload: payload(&variant.fields),
                        })
                        .collect();
                    self.types
                        .insert(item.ident.to_string(), TypeDef::Enum(variants));
                }
                Item::Type(item) => {
                    self.types
                        .insert(item.ident.to_string(), TypeDef::Alias((*item.ty).clone()));
                }
                _ => {}
            }
        }
        // A type whose `Serialize` the generator writes out has no serde
        // attributes left: its wire names are those its impl writes.
        for item in &file.items {
            if let Item::Impl(block) = item
                && let Some((path, _)) = &block.trait_
                && path
                    .segments
                    .last()
                    .is_some_and(|last| last.ident == "Serialize")
                && let Some(name) = type_name_of(&block.self_ty)
                && let Some(def) = self.types.get_mut(&name)
            {
                written_wire_names(block, def);
            }
        }
        // An alias of one of the crate's newtypes or enums is the generator
        // sharing one type between schemas of one shape
        // (`emit::same_shape`): each name's API is the shared type's, and
        // which names share is not part of it.
        let shared: Vec<(String, TypeDef)> = self
            .types
            .iter()
            .filter_map(|(name, def)| match def {
                TypeDef::Alias(Type::Path(target)) if target.qself.is_none() => {
                    let target = target.path.get_ident()?.to_string();
                    match self.types.get(&target)? {
                        shared @ (TypeDef::Newtype(_) | TypeDef::Enum(_)) => {
                            Some((name.clone(), shared.clone()))
                        }
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect();
        self.types.extend(shared);
    }

    fn read_client(&mut self, file: &syn::File) {
        // `Client::method(&self) -> builder::Method<'_>`, then the
        // builder's fields (which say what is optional) and setters.
        let mut builders = BTreeMap::new();
        for item in &file.items {
            if let Item::Impl(block) = item
                && type_name_of(&block.self_ty).as_deref() == Some("Client")
            {
                for method in impl_fns(block) {
                    if let syn::ReturnType::Type(_, output) = &method.sig.output
                        && let Some(builder) = type_name_of(output)
                    {
                        builders.insert(builder, method.sig.ident.to_string());
                    }
                }
            }
        }
        let Some(module) = file.items.iter().find_map(|item| match item {
            Item::Mod(module) if module.ident == "builder" => module.content.as_ref(),
            _ => None,
        }) else {
            return;
        };
        let mut optional = BTreeMap::new();
        for item in &module.1 {
            if let Item::Struct(item) = item
                && builders.contains_key(&item.ident.to_string())
            {
                for field in &item.fields {
                    let Some(name) = &field.ident else { continue };
                    // `Result<Option<T>, String>`: set or not.
                    let held = generic_arguments(&field.ty).into_iter().next();
                    let is_option =
                        held.is_some_and(|held| type_name_of(held).as_deref() == Some("Option"));
                    optional.insert((item.ident.to_string(), name.to_string()), is_option);
                }
            }
        }
        for item in &module.1 {
            let Item::Impl(block) = item else { continue };
            let Some(builder) = type_name_of(&block.self_ty) else {
                continue;
            };
            let Some(method) = builders.get(&builder) else {
                continue;
            };
            for setter in impl_fns(block) {
                let name = setter.sig.ident.to_string();
                let Some(optional) = optional.get(&(builder.clone(), name.clone())) else {
                    continue;
                };
                if let Some(takes) = setter_takes(setter) {
                    self.arguments.entry(method.clone()).or_default().insert(
                        name,
                        Argument {
                            takes,
                            optional: *optional,
                        },
                    );
                }
            }
        }
    }

    fn read_server(&mut self, file: &syn::File) {
        let mut shared = BTreeMap::new();
        for item in &file.items {
            if let Item::Mod(module) = item
                && module.ident == "responses"
                && let Some((_, items)) = &module.content
            {
                for item in items {
                    if let Item::Struct(item) = item
                        && let Fields::Named(fields) = &item.fields
                    {
                        shared.insert(
                            item.ident.to_string(),
                            fields_shown(&public_fields(&fields.named)),
                        );
                    }
                }
            }
        }
        for item in &file.items {
            let Item::Enum(item) = item else { continue };
            let variants = item
                .variants
                .iter()
                .map(|variant| {
                    let payload = payload(&variant.fields);
                    // A shared response with headers is a struct of the
                    // `responses` module: its fields are the payload.
                    let shown = match &payload {
                        Payload::Tuple(types) if types.len() == 1 => match &types[0] {
                            Type::Path(path)
                                if path.path.segments.len() == 2
                                    && path.path.segments[0].ident == "responses" =>
                            {
                                shared
                                    .get(&path.path.segments[1].ident.to_string())
                                    .cloned()
                                    .unwrap_or_else(|| payload.shown())
                            }
                            _ => payload.shown(),
                        },
                        _ => payload.shown(),
                    };
                    (variant.ident.to_string(), shown)
                })
                .collect();
            self.responses.insert(item.ident.to_string(), variants);
        }
    }
}

fn impl_fns(block: &syn::ItemImpl) -> impl Iterator<Item = &syn::ImplItemFn> {
    block.items.iter().filter_map(|item| match item {
        ImplItem::Fn(method) if matches!(method.vis, syn::Visibility::Public(_)) => Some(method),
        _ => None,
    })
}

/// What a builder setter takes: the `T` of its `V: TryInto<T>` (or
/// `Into<T>`) bound, else the type of its `value` argument.
fn setter_takes(setter: &syn::ImplItemFn) -> Option<String> {
    let generics = &setter.sig.generics;
    let bound = |bounds: &syn::punctuated::Punctuated<TypeParamBound, syn::Token![+]>| {
        bounds.iter().find_map(|bound| match bound {
            TypeParamBound::Trait(bound) => {
                let segment = bound.path.segments.last()?;
                if segment.ident != "TryInto" && segment.ident != "Into" {
                    return None;
                }
                match &segment.arguments {
                    PathArguments::AngleBracketed(arguments) => {
                        arguments.args.iter().find_map(|argument| match argument {
                            GenericArgument::Type(ty) => Some(show(ty)),
                            _ => None,
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        })
    };
    let value = setter.sig.inputs.iter().find_map(|input| match input {
        FnArg::Typed(argument) => Some(&*argument.ty),
        FnArg::Receiver(_) => None,
    })?;
    let generic = type_name_of(value);
    for param in generics.type_params() {
        if Some(param.ident.to_string()) == generic
            && let Some(found) = bound(&param.bounds)
        {
            return Some(found);
        }
    }
    if let Some(clause) = &generics.where_clause {
        for predicate in &clause.predicates {
            if let WherePredicate::Type(predicate) = predicate
                && type_name_of(&predicate.bounded_ty) == generic
                && let Some(found) = bound(&predicate.bounds)
            {
                return Some(found);
            }
        }
    }
    // `map` setters take a closure over the builder's value, not an argument.
    if generics.type_params().next().is_some() {
        return None;
    }
    Some(show(value))
}

fn public_fields(fields: &syn::punctuated::Punctuated<syn::Field, syn::Token![,]>) -> Vec<Field> {
    fields
        .iter()
        .filter(|field| matches!(field.vis, syn::Visibility::Public(_)))
        .filter_map(|field| {
            let name = field.ident.as_ref()?.to_string();
            let name = name.trim_start_matches("r#").to_string();
            Some(Field {
                wire: serde_rename(&field.attrs).unwrap_or_else(|| name.clone()),
                name,
                ty: field.ty.clone(),
            })
        })
        .collect()
}

fn payload(fields: &Fields) -> Payload {
    match fields {
        Fields::Unit => Payload::Unit,
        Fields::Unnamed(fields) => Payload::Tuple(
            fields
                .unnamed
                .iter()
                .map(|field| field.ty.clone())
                .collect(),
        ),
        Fields::Named(fields) => Payload::Struct(
            fields
                .named
                .iter()
                .filter_map(|field| {
                    let name = field.ident.as_ref()?.to_string();
                    Some(Field {
                        wire: serde_rename(&field.attrs).unwrap_or_else(|| name.clone()),
                        name,
                        ty: field.ty.clone(),
                    })
                })
                .collect(),
        ),
    }
}

/// The wire names a written-out `Serialize` (the generator's
/// `emit::deserialize`) gives `def`'s fields (`__object.field("wire",
/// &self.name)`) or variants (`const __VARIANTS`, in their order).
fn written_wire_names(block: &syn::ItemImpl, def: &mut TypeDef) {
    let Some(ImplItem::Fn(method)) = block.items.first() else {
        return;
    };
    let text = |expr: &syn::Expr| match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Some(text.value()),
        _ => None,
    };
    for stmt in &method.block.stmts {
        match (stmt, &mut *def) {
            (syn::Stmt::Expr(syn::Expr::MethodCall(call), _), TypeDef::Struct(fields))
                if call.method == "field" || call.method == "field_unless" =>
            {
                let args: Vec<&syn::Expr> = call.args.iter().collect();
                let [.., wire, syn::Expr::Reference(value)] = args[..] else {
                    continue;
                };
                if let (Some(wire), syn::Expr::Field(value)) = (text(wire), &*value.expr)
                    && let syn::Member::Named(member) = &value.member
                {
                    let member = member.to_string();
                    let member = member.trim_start_matches("r#");
                    for field in fields.iter_mut().filter(|field| field.name == member) {
                        field.wire = wire.clone();
                    }
                }
            }
            (syn::Stmt::Item(Item::Const(names)), TypeDef::Enum(variants))
                if names.ident == "__VARIANTS" =>
            {
                let syn::Expr::Reference(array) = &*names.expr else {
                    continue;
                };
                let syn::Expr::Array(array) = &*array.expr else {
                    continue;
                };
                for (variant, wire) in variants.iter_mut().zip(&array.elems) {
                    // As a `rename` was: written where it differs.
                    variant.wire =
                        text(wire).filter(|wire| *wire != variant.name.trim_start_matches("r#"));
                }
            }
            _ => {}
        }
    }
}

/// The `rename` of a `#[serde(..)]` attribute.
fn serde_rename(attrs: &[syn::Attribute]) -> Option<String> {
    let mut rename = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        // Other serde arguments are skipped over; one this does not read
        // ends the attribute, which only loses a rename.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                rename = Some(value.value());
            } else if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _ = meta.parse_nested_meta(|inner| {
                    if inner.input.peek(syn::Token![=]) {
                        inner.value()?.parse::<syn::Expr>()?;
                    }
                    Ok(())
                });
            }
            Ok(())
        });
    }
    rename
}

/// The last segment of a path type, without its arguments: `Client` for
/// `super::Client`, `Foo` for `builder::Foo<'a>`.
pub fn type_name_of(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            Some(path.path.segments.last()?.ident.to_string())
        }
        Type::Paren(inner) => type_name_of(&inner.elem),
        Type::Group(inner) => type_name_of(&inner.elem),
        _ => None,
    }
}

/// The type arguments of a path type's last segment.
pub fn generic_arguments(ty: &Type) -> Vec<&Type> {
    match ty {
        Type::Path(path) => match path.path.segments.last().map(|s| &s.arguments) {
            Some(PathArguments::AngleBracketed(arguments)) => arguments
                .args
                .iter()
                .filter_map(|argument| match argument {
                    GenericArgument::Type(ty) => Some(ty),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A type as the report writes it: each path by its last segment
/// (`Option<String>`, `DateTime<Utc>`, `Map<String, Value>`).
pub fn show(ty: &Type) -> String {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return String::new();
            };
            let mut shown = last.ident.to_string();
            if let PathArguments::AngleBracketed(arguments) = &last.arguments {
                let arguments: Vec<String> = arguments
                    .args
                    .iter()
                    .filter_map(|argument| match argument {
                        GenericArgument::Type(ty) => Some(show(ty)),
                        GenericArgument::Lifetime(_) => None,
                        other => Some(compact(other)),
                    })
                    .collect();
                if !arguments.is_empty() {
                    shown = format!("{shown}<{}>", arguments.join(", "));
                }
            }
            shown
        }
        Type::Reference(reference) => {
            let mutable = if reference.mutability.is_some() {
                "mut "
            } else {
                ""
            };
            format!("&{mutable}{}", show(&reference.elem))
        }
        Type::Tuple(tuple) => {
            let elems: Vec<String> = tuple.elems.iter().map(show).collect();
            format!("({})", elems.join(", "))
        }
        Type::Slice(slice) => format!("[{}]", show(&slice.elem)),
        Type::Array(array) => format!("[{}; {}]", show(&array.elem), compact(&array.len)),
        Type::Paren(inner) => show(&inner.elem),
        Type::Group(inner) => show(&inner.elem),
        other => compact(other),
    }
}

/// Tokens without the spaces `to_string` puts between every two.
fn compact(tokens: &impl quote::ToTokens) -> String {
    tokens.to_token_stream().to_string().replace(' ', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_shown_by_their_last_segments() {
        let ty: Type = syn::parse_str(
            "::std::option::Option<::std::vec::Vec<::chrono::DateTime<::chrono::offset::Utc>>>",
        )
        .unwrap();
        assert_eq!(show(&ty), "Option<Vec<DateTime<Utc>>>");
        let ty: Type =
            syn::parse_str("::serde_json::Map<::std::string::String, ::serde_json::Value>")
                .unwrap();
        assert_eq!(show(&ty), "Map<String, Value>");
    }

    #[test]
    fn the_types_crate_is_read_with_wire_names() {
        let file = syn::parse_file(
            r#"
            pub struct Thing {
                #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
                pub type_: ::std::option::Option<ThingType>,
                pub id: ThingId,
                hidden: bool,
            }
            pub enum ThingType {
                #[serde(rename = "a-b")]
                AB,
                Other(::std::string::String),
            }
            pub struct ThingId(::std::string::String);
            pub type Things = ::std::vec::Vec<Thing>;
            pub type OwnerId = ThingId;
            "#,
        )
        .unwrap();
        let mut emitted = Emitted::default();
        emitted.read_types(&file);
        let TypeDef::Struct(fields) = &emitted.types["Thing"] else {
            panic!("Thing is no struct");
        };
        let read: Vec<(&str, &str, String)> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.wire.as_str(), show(&f.ty)))
            .collect();
        assert_eq!(
            read,
            [
                ("type_", "type", "Option<ThingType>".to_string()),
                ("id", "id", "ThingId".to_string())
            ]
        );
        let TypeDef::Enum(variants) = &emitted.types["ThingType"] else {
            panic!("ThingType is no enum");
        };
        assert_eq!(variants[0].wire.as_deref(), Some("a-b"));
        assert_eq!(variants[1].payload.shown(), "(String)");
        assert!(matches!(emitted.types["ThingId"], TypeDef::Newtype(_)));
        assert!(matches!(emitted.types["Things"], TypeDef::Alias(_)));
        // A name sharing a newtype of the same shape reads as that newtype.
        assert!(matches!(emitted.types["OwnerId"], TypeDef::Newtype(_)));
    }

    /// The generator writes out `Serialize` and `Deserialize` of plain
    /// structs and string enums, serde's attributes then gone: the wire
    /// names are read from the written impls.
    #[test]
    fn wire_names_are_read_from_written_out_impls() {
        let written = openapi_crates_codegen::emit::deserialize::written_out(
            quote::quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
                pub struct Thing {
                    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
                    pub type_: ::std::option::Option<ThingType>,
                    pub id: ::std::string::String,
                }
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
                pub enum ThingType {
                    #[serde(rename = "a-b")]
                    AB,
                    Other,
                }
            },
            &Default::default(),
        );
        let file = syn::parse2(written).unwrap();
        let mut emitted = Emitted::default();
        emitted.read_types(&file);
        let TypeDef::Struct(fields) = &emitted.types["Thing"] else {
            panic!("Thing is no struct");
        };
        let read: Vec<(&str, &str)> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.wire.as_str()))
            .collect();
        assert_eq!(read, [("type_", "type"), ("id", "id")]);
        let TypeDef::Enum(variants) = &emitted.types["ThingType"] else {
            panic!("ThingType is no enum");
        };
        let read: Vec<Option<&str>> = variants.iter().map(|v| v.wire.as_deref()).collect();
        assert_eq!(read, [Some("a-b"), None]);
    }

    #[test]
    fn builder_arguments_are_what_their_setters_take() {
        let file = syn::parse_file(
            r#"
            impl Client {
                pub fn get_thing(&self) -> builder::GetThing<'_> { builder::GetThing::new(self) }
            }
            pub mod builder {
                pub struct GetThing<'a> {
                    client: &'a super::Client,
                    id: Result<::std::string::String, String>,
                    limit: Result<Option<i64>, String>,
                    body: Result<reqwest::Body, String>,
                }
                impl<'a> GetThing<'a> {
                    pub fn new(client: &'a super::Client) -> Self { todo!() }
                    pub fn id<V>(mut self, value: V) -> Self
                    where V: std::convert::TryInto<::std::string::String> { self }
                    pub fn limit<V>(mut self, value: V) -> Self
                    where V: std::convert::TryInto<i64> { self }
                    pub fn body<B>(mut self, value: B) -> Self
                    where B: std::convert::Into<reqwest::Body> { self }
                }
            }
            "#,
        )
        .unwrap();
        let mut emitted = Emitted::default();
        emitted.read_client(&file);
        let arguments = &emitted.arguments["get_thing"];
        assert_eq!(arguments["id"].signature(), "String");
        assert_eq!(arguments["limit"].signature(), "Option<i64>");
        assert_eq!(arguments["body"].signature(), "Body");
        assert_eq!(arguments.len(), 3, "{arguments:?}");
    }
}

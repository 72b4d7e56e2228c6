import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readNamespace } from '../../lib/diff/declaration.js';
import { languageOf } from '../../lib/diff/language.js';

const ns = (path: string, source: string) => readNamespace(languageOf(path), source.split('\n'));

test('Go, Java, Kotlin, Scala, Groovy packages (with or without ;)', () => {
  assert.equal(ns('store/db.go', '// Package store\npackage store\n\nimport "fmt"'), 'store');
  assert.equal(ns('A.java', 'package com.acme.store;\n\nclass A {}'), 'com.acme.store');
  assert.equal(ns('A.kt', 'package com.acme.store\n\nclass A'), 'com.acme.store');
  assert.equal(ns('A.kts', 'package com.acme.build'), 'com.acme.build');
  assert.equal(ns('A.groovy', 'package com.acme.g;'), 'com.acme.g');
  assert.equal(ns('A.scala', 'package com.acme\npackage store\n\nobject A'), 'com.acme.store');
  assert.equal(ns('p.scala', 'package com.acme\npackage object store {'), 'com.acme');
  assert.equal(ns('A.java', 'import x.y;\nclass A {}'), null);
});

test('C#: file-scoped and block namespaces, nested blocks', () => {
  assert.equal(ns('R.cs', 'using System;\nnamespace Shop.Repositories;\npublic class R {}'), 'Shop.Repositories');
  assert.equal(ns('R.cs', 'namespace Shop.Repositories {\n  class R {}\n}'), 'Shop.Repositories');
  assert.equal(
    ns('R.cs', 'namespace Shop\n{\n  namespace Repositories\n  {\n    class R { void M() { } }\n  }\n}'),
    'Shop.Repositories',
  );
});

test('PHP namespaces', () => {
  assert.equal(ns('C.php', '<?php\n\nnamespace App\\Http;\n\nuse Foo;'), 'App\\Http');
  assert.equal(ns('C.php', '<?php\nnamespace App\\Http\\Controllers {\n}'), 'App\\Http\\Controllers');
});

test('C++: qualified, inline, nested blocks, anonymous, braces in strings and comments', () => {
  assert.equal(ns('a.cpp', 'namespace geo::v2 {\nint x;\n}'), 'geo::v2');
  assert.equal(ns('a.hpp', 'namespace geo {\ninline namespace v2 {\nstruct P {};\n}\n}'), 'geo::v2');
  assert.equal(ns('a.cc', 'namespace geo {\nnamespace {\nint hidden;\n}\nnamespace v2 {\n}\n}'), 'geo::v2');
  assert.equal(ns('a.cpp', 'namespace geo\n{\nconst char* s = "}}}"; // }\nnamespace v2 {\n}\n}'), 'geo::v2');
  assert.equal(ns('a.cpp', 'namespace a { }\nnamespace b {\n}'), 'a');
  assert.equal(ns('a.cpp', 'namespace a::inline v3 {\n}'), 'a::v3');
  assert.equal(ns('a.cpp', 'namespace fs = std::filesystem;'), null);
});

test('C++: several declarations and braces on one line', () => {
  // One line or two: the same namespace.
  assert.equal(ns('a.hpp', 'namespace geo { inline namespace v2 {\nstruct P {};\n} }'), 'geo::v2');
  assert.equal(ns('a.hpp', 'namespace geo {\ninline namespace v2 {\nstruct P {};\n} }'), 'geo::v2');
  assert.equal(ns('a.cpp', 'namespace a::b { namespace c {\nint x;\n}}'), 'a::b::c');
  assert.equal(ns('a.cpp', 'namespace a::b { namespace c { int x; } }'), 'a::b::c');
  // Blocks closed on their own line end there: the next declaration is a sibling, not nested.
  assert.equal(ns('a.cpp', 'namespace a { } namespace b { namespace c {\n}}'), 'b::c');
  assert.equal(ns('a.cpp', 'namespace a { namespace b { } }\nnamespace c {\n}'), 'a::b');
  assert.equal(ns('a.cpp', 'namespace a { namespace b { } } namespace c { namespace d { namespace e {'), 'c::d::e');
  assert.equal(ns('a.cpp', 'namespace geo { namespace { int hidden; } namespace v2 {\n}}'), 'geo::v2');
  assert.equal(ns('a.cpp', 'namespace a { int x = 1; }'), 'a');
  assert.equal(ns('a.cpp', 'struct S {}; namespace a { namespace b {'), 'a::b');
  // Not declarations: a using-directive, an alias, the word inside a literal or comment.
  assert.equal(ns('a.cpp', 'namespace a { using namespace std; }'), 'a');
  assert.equal(ns('a.cpp', 'namespace a { namespace fs = std::filesystem; }'), 'a');
  assert.equal(ns('a.cpp', 'const char* s = "namespace x {"; // namespace y {'), null);
  assert.equal(ns('a.cpp', '} } // namespace geo::v2'), null);
});

test('C# and TypeScript: nested blocks on one line', () => {
  assert.equal(ns('R.cs', 'namespace Shop { namespace Repositories {\n  class R {}\n} }'), 'Shop.Repositories');
  assert.equal(ns('b.ts', 'export namespace Billing { export namespace Tax {\n}}'), 'Billing.Tax');
  assert.equal(ns('b.ts', 'namespace A { } namespace B { }'), 'A');
});

test('TypeScript: [export] [declare] namespace / module, nested and dotted', () => {
  assert.equal(ns('b.ts', 'export namespace Billing {\n  export const x = 1;\n}'), 'Billing');
  assert.equal(ns('b.d.ts', 'declare namespace Billing.Invoices {\n}'), 'Billing.Invoices');
  assert.equal(ns('b.ts', 'export declare module Billing {\n  namespace Tax {\n  }\n}'), 'Billing.Tax');
  assert.equal(ns('b.ts', 'module Billing {\n}'), 'Billing');
  assert.equal(ns('b.ts', "declare module 'express' {\n}"), null);
  assert.equal(ns('b.ts', 'module.exports = {};'), null);
});

test('languages without declarations: folders only', () => {
  for (const path of ['a.py', 'a.rb', 'a.rs', 'a.swift', 'a.js', 'Makefile', 'README']) {
    assert.equal(ns(path, 'package store\nnamespace X;\nmodule Y {\n}'), null, path);
  }
});

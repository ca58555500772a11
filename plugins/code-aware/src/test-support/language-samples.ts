import type { LanguageId } from '../grammar/language-id.js';

/** A small source per language for the folding tests: names that must survive, text that must go. */
export interface LanguageSample {
  readonly language: LanguageId;
  readonly code: string;
  /** Signatures, imports and type names that stay after folding. */
  readonly kept: readonly string[];
  /** Comment and body text that folding removes. */
  readonly removed: readonly string[];
  /** A body line (1-based) cited later; it must stay although its body folds. */
  readonly citedLine: number;
  readonly citedText: string;
}

export const SAMPLES: readonly LanguageSample[] = [
  {
    language: 'python',
    code: `import os
from typing import Optional

# Module comment that goes first.
class Parser:
    """Parses durations."""

    default_unit = "seconds"

    def parse(self, text: str) -> Optional[int]:
        # strip spaces
        value = text.strip()
        if not value:
            return None
        total = 0
        for part in value.split(":"):
            total = total * 60 + int(part)
        return total

def helper(path):
    with open(path) as handle:
        data = handle.read()
    return len(data)
`,
    kept: [
      'import os',
      'from typing import Optional',
      'class Parser:',
      'default_unit = "seconds"',
      'def parse(self, text: str) -> Optional[int]:',
      'def helper(path):',
    ],
    removed: ['Module comment', 'Parses durations', 'strip spaces', 'handle.read()'],
    citedLine: 17,
    citedText: 'total = total * 60 + int(part)',
  },
  {
    language: 'typescript',
    code: `import { readFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** Loads configuration files. */
export interface LoaderOptions {
  readonly root: string;
}

export class ConfigLoader {
  private cache = new Map<string, string>();

  async load(path: string): Promise<string> {
    // cached reads are free
    const hit = this.cache.get(path);
    if (hit !== undefined) return hit;
    const text = await readFile(path, 'utf8');
    this.cache.set(path, text);
    return text;
  }
}

export function sizeOf(stats: Stats): number {
  const blocks = stats.blocks;
  return blocks * 512;
}
`,
    kept: [
      "import { readFile } from 'node:fs/promises';",
      'export interface LoaderOptions {',
      'export class ConfigLoader {',
      'async load(path: string): Promise<string> {',
      'export function sizeOf(stats: Stats): number {',
    ],
    removed: ['Loads configuration files', 'cached reads are free', 'stats.blocks'],
    citedLine: 16,
    citedText: "const text = await readFile(path, 'utf8');",
  },
  {
    language: 'javascript',
    code: `const path = require('node:path');
import { join } from 'node:path';

// Resolves module names.
class Resolver {
  constructor(root) {
    this.root = root;
    this.seen = new Set();
  }

  resolve(name) {
    const full = join(this.root, name);
    this.seen.add(full);
    return full;
  }
}

function normalise(value) {
  const trimmed = value.trim();
  return trimmed.toLowerCase();
}
`,
    kept: ["import { join } from 'node:path';", 'class Resolver {', 'constructor(root) {', 'resolve(name) {', 'function normalise(value) {'],
    removed: ['Resolves module names', 'this.seen = new Set()', 'trimmed.toLowerCase()'],
    citedLine: 13,
    citedText: 'this.seen.add(full);',
  },
  {
    language: 'go',
    code: `package store

import (
	"errors"
	"sync"
)

// Store keeps values in memory.
type Store struct {
	mu     sync.Mutex
	values map[string]string
}

func (s *Store) Get(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	value, ok := s.values[key]
	if !ok {
		return "", errors.New("missing")
	}
	return value, nil
}

func New() *Store {
	values := make(map[string]string)
	return &Store{values: values}
}
`,
    kept: ['package store', '"errors"', 'type Store struct {', 'func (s *Store) Get(key string) (string, error) {', 'func New() *Store {'],
    removed: ['keeps values in memory', 'defer s.mu.Unlock()', 'make(map[string]string)'],
    citedLine: 17,
    citedText: 'value, ok := s.values[key]',
  },
  {
    language: 'rust',
    code: `use std::collections::HashMap;
use std::fmt;

/// A counter of words.
pub struct Counter {
    counts: HashMap<String, usize>,
}

impl Counter {
    pub fn add(&mut self, word: &str) -> usize {
        // count one more
        let entry = self.counts.entry(word.to_string()).or_insert(0);
        *entry += 1;
        *entry
    }

    pub fn total(&self) -> usize {
        let values = self.counts.values();
        values.sum()
    }
}

fn main() {
    let counter = Counter { counts: HashMap::new() };
    println!("{}", counter.total());
}
`,
    kept: [
      'use std::collections::HashMap;',
      'pub struct Counter {',
      'impl Counter {',
      'pub fn add(&mut self, word: &str) -> usize {',
      'pub fn total(&self) -> usize {',
      'fn main() {',
    ],
    removed: ['A counter of words', 'count one more', 'self.counts.values()'],
    citedLine: 13,
    citedText: '*entry += 1;',
  },
  {
    language: 'java',
    code: `package com.example.shop;

import java.util.List;
import java.util.ArrayList;

/** A shopping cart. */
public class Cart {
    private final List<String> items = new ArrayList<>();

    public Cart() {
        // empty cart
        items.clear();
    }

    public int add(String item) {
        items.add(item);
        int size = items.size();
        return size;
    }

    public List<String> items() {
        List<String> copy = new ArrayList<>(items);
        return copy;
    }
}
`,
    kept: ['package com.example.shop;', 'import java.util.List;', 'public class Cart {', 'public int add(String item) {', 'public List<String> items() {'],
    removed: ['A shopping cart', 'empty cart', 'new ArrayList<>(items)'],
    citedLine: 17,
    citedText: 'int size = items.size();',
  },
  {
    language: 'cpp',
    code: `#include <stdio.h>
#include <stdlib.h>

/* A growable buffer, in C. */
struct buffer {
    char *data;
    size_t length;
};

static int buffer_grow(struct buffer *buffer, size_t extra) {
    /* double until it fits */
    size_t wanted = buffer->length + extra;
    char *next = realloc(buffer->data, wanted);
    if (next == NULL) return -1;
    buffer->data = next;
    return 0;
}

int main(void) {
    struct buffer buffer = {0};
    int status = buffer_grow(&buffer, 16);
    printf("%d\\n", status);
    return status;
}
`,
    kept: ['#include <stdio.h>', 'struct buffer {', 'static int buffer_grow(struct buffer *buffer, size_t extra) {', 'int main(void) {'],
    removed: ['A growable buffer', 'double until it fits', 'printf('],
    citedLine: 13,
    citedText: 'char *next = realloc(buffer->data, wanted);',
  },
  {
    language: 'cpp',
    code: `#include <vector>
#include <string>

// Holds names.
namespace names {

class Registry {
public:
    void add(const std::string &name) {
        // keep insertion order
        items_.push_back(name);
        count_++;
    }

    size_t size() const {
        auto total = items_.size();
        return total;
    }

private:
    std::vector<std::string> items_;
    size_t count_ = 0;
};

}  // namespace names
`,
    kept: [
      '#include <vector>',
      'namespace names {',
      'class Registry {',
      'void add(const std::string &name) {',
      'size_t size() const {',
      'std::vector<std::string> items_;',
    ],
    removed: ['Holds names', 'keep insertion order', 'auto total = items_.size();'],
    citedLine: 12,
    citedText: 'count_++;',
  },
  {
    language: 'bash',
    code: `#!/usr/bin/env bash
set -euo pipefail

# Deploys the site.
build() {
  local target="$1"
  mkdir -p "$target"
  cp -r site/* "$target"
  echo "built $target"
}

deploy() {
  build dist
  rsync -a dist/ server:/var/www/
  echo "deployed"
}

deploy
`,
    kept: ['set -euo pipefail', 'build() {', 'deploy() {'],
    removed: ['Deploys the site', 'mkdir -p "$target"', 'rsync -a dist/'],
    citedLine: 8,
    citedText: 'cp -r site/* "$target"',
  },
];

import { InvalidArgumentError } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { ollmHome, resolveInside, validateStorageId } from './storage-id.js';

describe('storage ids', () => {
  it.each(['../x', '..', 'a/../../b', '/etc/passwd', 'a/b', 'a\\b', 'x\0y', '', '.hidden', 'C:\\x', 'a'.repeat(129)])('refuses %j with a clear error', (id) => {
    expect(() => validateStorageId('session', id)).toThrowError(/Invalid session id/);
    try {
      validateStorageId('snapshot', id);
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
    }
  });

  it('accepts plain ids', () => {
    for (const id of ['abc', 'session-1', '2026_11_30.a', 'A'.repeat(128)]) expect(validateStorageId('session', id)).toBe(id);
  });

  it('never resolves outside the root', () => {
    expect(resolveInside('/tmp/home', 'sessions', 'a')).toBe('/tmp/home/sessions/a');
    expect(() => resolveInside('/tmp/home', '..', 'x')).toThrowError(/outside/);
    expect(() => resolveInside('/tmp/home', '/etc')).toThrowError(/outside/);
  });

  it('uses OLLM_HOME, else ~/.ollm', () => {
    expect(ollmHome({ OLLM_HOME: '/data/ollm' })).toBe('/data/ollm');
    expect(ollmHome({ HOME: '/home/me' })).toBe('/home/me/.ollm');
  });
});

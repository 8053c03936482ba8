import { describe, expect, it } from 'vitest';
import { maxNameBytes, numberedName, safeFileName } from './file-names.ts';

describe('the name a saved file gets', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\evil.bat', 'evil.bat'],
    ['dir/', 'download'],
    ['a<b>c:d"e|f?g*h.txt', 'a_b_c_d_e_f_g_h.txt'],
    ['line\nbreak\u0000nul\u007f.txt', 'line_break_nul_.txt'],
    ['.bashrc', 'bashrc'],
    ['...hidden.txt', 'hidden.txt'],
    ['name. . .', 'name'],
    ['trailing space.txt  ', 'trailing space.txt'],
    ['..', 'download'],
    ['', 'download'],
    ['CON', '_CON'],
    ['con.txt', '_con.txt'],
    ['Lpt1.tar.gz', '_Lpt1.tar.gz'],
    ['console.txt', 'console.txt'],
    ['pods-e\u0301.yaml', 'pods-\u00e9.yaml'],
  ])('%j is saved as %j', (given, expected) => {
    expect(safeFileName(given)).toBe(expected);
  });

  it(`caps the name at ${maxNameBytes} UTF-8 bytes, keeping the extension and whole characters`, () => {
    const long = safeFileName(`${'é'.repeat(300)}.yaml`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(maxNameBytes);
    expect(long).toMatch(/^é+\.yaml$/);
    const noExtension = safeFileName('x'.repeat(500));
    expect(noExtension).toBe('x'.repeat(maxNameBytes));
    // An "extension" that is most of the name is cut with it.
    expect(safeFileName(`a.${'b'.repeat(300)}`)).toBe(`a.${'b'.repeat(maxNameBytes - 2)}`);
  });

  it('numbers a taken name before its extension', () => {
    expect(numberedName('report.pdf', 0)).toBe('report.pdf');
    expect(numberedName('report.pdf', 2)).toBe('report (2).pdf');
    expect(numberedName('archive.tar.gz', 1)).toBe('archive.tar (1).gz');
    expect(numberedName('README', 1)).toBe('README (1)');
  });
});

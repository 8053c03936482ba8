import { describe, expect, it } from 'vitest';
import { commandWords, imageConfig, layerCommands } from './config.ts';

describe('imageConfig', () => {
  it('reads the run settings of a config, sorted, and nothing from what is not there or not of its type', () => {
    expect(
      imageConfig({
        created: '2026-11-01T10:00:00Z',
        config: {
          Entrypoint: ['/bin/app'],
          Cmd: ['--port', 8080],
          Env: ['PATH=/bin', 'MODE=prod'],
          User: '65532',
          WorkingDir: '/srv',
          Labels: { 'org.opencontainers.image.version': '1.4', a: 'b' },
          ExposedPorts: { '8080/tcp': {}, '443/tcp': {} },
        },
      }),
    ).toEqual({
      created: '2026-11-01T10:00:00Z',
      author: undefined,
      entrypoint: ['/bin/app'],
      cmd: ['--port'],
      env: ['PATH=/bin', 'MODE=prod'],
      user: '65532',
      workingDir: '/srv',
      labels: [
        ['a', 'b'],
        ['org.opencontainers.image.version', '1.4'],
      ],
      exposedPorts: ['443/tcp', '8080/tcp'],
      stopSignal: undefined,
    });
    expect(imageConfig({ config: 'nonsense' })).toMatchObject({ env: [], labels: [], exposedPorts: [] });
  });
});

describe('layerCommands', () => {
  it('lines up the history steps that made a layer with the layers, without the shell prefix', () => {
    const history = [
      { created_by: '/bin/sh -c #(nop) ADD file:abc in / ' },
      { created_by: '/bin/sh -c #(nop)  ENV A=1', empty_layer: true },
      { created_by: 'RUN /bin/sh -c apk add curl # buildkit' },
      { comment: 'imported' },
    ];
    expect(layerCommands({ history }, 4)).toEqual([
      'ADD file:abc in /',
      'RUN /bin/sh -c apk add curl # buildkit',
      'imported',
      undefined,
    ]);
    expect(layerCommands({}, 1)).toEqual([undefined]);
  });
});

describe('commandWords', () => {
  it('quotes only the words a shell would split or read', () => {
    expect(commandWords(['/bin/sh', '-c', "echo 'hi' there"])).toBe(`/bin/sh -c 'echo '\\''hi'\\'' there'`);
  });
});

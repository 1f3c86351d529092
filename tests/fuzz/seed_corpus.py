#!/usr/bin/python3
# seed_corpus.py - the fuzzer's seed corpus: every Modelica text the
# project has, one file each (named by a hash of the content, so that
# running it again adds nothing twice):
#   examples/**/*.mo, tests/fuzz/corpus/*, tests/fuzz/regressions/*,
#   the models the CLI tests write (here-documents and the model arguments
#   of bad_input.sh, shell variables expanded; not those of the scale
#   checks, *_scale.sh, whose size is the point and takes seconds under the
#   sanitizers and coverage, past the harness's 5 s), and the models the C
#   unit tests hold in string literals.
#   tests/fuzz/seed_corpus.py SOURCE_DIR OUT_DIR
import glob
import hashlib
import os
import re
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
texts = []

for pat in ('examples/*.mo', 'examples/**/*.mo', 'tests/fuzz/corpus/*', 'tests/fuzz/regressions/*'):
    for path in sorted(glob.glob(os.path.join(src, pat), recursive=True)):
        if os.path.isfile(path) and not os.path.basename(path).startswith('README'):
            with open(path, 'rb') as f:
                texts.append(f.read())

shell_vars = {'MTC': 'Modelica.Mechanics.Translational.Components',
              'MTS': 'Modelica.Mechanics.Translational.Sources',
              'MTSe': 'Modelica.Mechanics.Translational.Sensors',
              'MBS': 'Modelica.Blocks.Sources'}


def expand(s):
    return re.sub(r'\$\{?(\w+)\}?', lambda m: shell_vars.get(m.group(1), 'X'), s)


for path in sorted(glob.glob(os.path.join(src, 'tests/cli/*.sh'))):
    if path.endswith('_scale.sh'):
        continue
    sh = open(path).read()
    for m in re.finditer(r"<<\s*'?(\w+)'?\n(.*?)\n\1\n", sh, re.S):
        if re.search(r'\bmodel\b', m.group(2)):
            texts.append(expand(m.group(2)).encode())
    for m in re.finditer(r'-- "(.*?)"\s*$', sh, re.S | re.M):
        if re.search(r'\bmodel\b', m.group(1)):
            texts.append(expand(m.group(1).replace('\\"', '"')).encode())

for path in sorted(glob.glob(os.path.join(src, 'tests/unit/*.c'))):
    c = open(path).read()
    # string macros (#define MTC "Modelica...") become their literals first
    for name, lit in re.findall(r'^#define (\w+) ("(?:[^"\\\n]|\\.)*")\s*$', c, re.M):
        c = re.sub(r'(?<=["\s])' + name + r'(?=\s*")', lit, c)
    # runs of adjacent string literals, joined and unescaped
    for run in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', c):
        parts = re.findall(r'"((?:[^"\\\n]|\\.)*)"', run.group(0))
        s = ''.join(parts)
        if re.search(r'\bmodel\b', s) and 'end' in s:
            s = s.encode().decode('unicode_escape')
            texts.append(s.encode('latin-1', 'replace'))

new = 0
for t in texts:
    name = os.path.join(out, hashlib.sha1(t).hexdigest())
    if not os.path.exists(name):
        with open(name, 'wb') as f:
            f.write(t)
        new += 1
print(f'seed corpus: {len(texts)} texts, {new} new in {out}')

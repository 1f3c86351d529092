#!/usr/bin/python3
# make_dict.py - writes the libFuzzer dictionary (modelica.dict) from the
# output of `flange components` on stdin: every class path and short name,
# port, parameter and variable name, plus Modelica's keywords and tokens.
#   build/flange components | tests/fuzz/make_dict.py > tests/fuzz/modelica.dict
import re
import sys

txt = sys.stdin.read()
words = set()
for line in txt.split('\n'):
    if line and not line.startswith(' '):
        words.add(line.strip())
        words.add(line.strip().split('.')[-1])
for m in re.finditer(r'^\s+ports: (.*)$', txt, re.M):
    words.update(re.findall(r'(\w+) \(', m.group(1)))
words.update(re.findall(r'^\s+parameter \S+ (\w+)', txt, re.M))
words.update(re.findall(r'^\s+variable (\w+)', txt, re.M))
words.update(re.findall(r'= ([A-Z][\w.]+\.\w+)', txt))
words.update("""algorithm and annotation block break class connect connector constant constrainedby
    discrete each else elseif elsewhen encapsulated end enumeration equation expandable extends external
    false final flow for function if import impure in initial inner input loop model not operator or outer
    output package parameter partial protected public pure record redeclare replaceable return stream then
    true type when while within""".split())
words.update("""Real Integer Boolean String start fixed nominal min max unit experiment StartTime StopTime
    Interval Tolerance Modelica.Constants.pi Modelica.Constants.inf Modelica.Constants.eps
    Modelica.Constants.small StateSelect.default Modelica.Blocks.Types.Smoothness.LinearSegments
    Modelica.Blocks.Types.Extrapolation.Periodic Modelica.Blocks.Types.Regularization.Linear
    Modelica.Mechanics.Translational Modelica.Mechanics.Translational.Components
    Modelica.Mechanics.Translational.Sources Modelica.Mechanics.Translational.Sensors Modelica.Blocks.Sources
    Modelica.SIunits.Position Modelica.Units.SI.Force sin cos exp sqrt abs sign fill zeros ones size sum der
    pre time Placement Documentation Icon Diagram Line points color""".split())
tokens = ['(', ')', '{', '}', '[', ']', ';', ',', '.', ':=', '=', '==', '<>', '<=', '>=', '<', '>', '+', '-',
          '*', '/', '^', '.*', './', '.^', '"', '//', '/*', '*/', ' = ', '1e10', '1e-9', '-1', '0.5', '1', '0',
          '2', '100', '1e300', '1e-300', '1e309', '()', ' ', '\n', 'connect(', ');',
          'annotation(experiment(StopTime=1));', 'end ', 'model M', 'end M;', 'equation\n', 'parameter Real ',
          '(start=0, fixed=true)', 's(fixed=true)', 'v(fixed=true)']


def quoted(w):
    """libFuzzer's format: backslash and quote escaped, others as \\xHH"""
    return '"' + ''.join('\\' + ch if ch in '\\"' else ch if ' ' <= ch <= '~' else '\\x%02X' % ord(ch)
                         for ch in w) + '"'


print("# Modelica tokens and flange's component, port, parameter and variable names")
print("# (written by tests/fuzz/make_dict.py from `flange components`)")
for w in sorted(words):
    print(quoted(w))
for w in tokens:
    print(quoted(w))

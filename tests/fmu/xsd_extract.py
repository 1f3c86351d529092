#!/usr/bin/python3
"""Write the FMI schema embedded in fmusim's fmi2schema.h / fmi3schema.h
(an `unsigned char NAME[] = { 0x.., ... };` array, xxd -i style) as an
.xsd file, for xmllint --schema.

usage: xsd_extract.py HEADER.h OUT.xsd
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    text = open(sys.argv[1], encoding="ascii").read()
    m = re.search(r"unsigned char \w+\[\]\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        sys.exit("%s: no byte array found" % sys.argv[1])
    data = bytes(int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{1,2})", m.group(1)))
    n = re.search(r"unsigned int \w+_len\s*=\s*(\d+);", text)
    if n and int(n.group(1)) != len(data):
        sys.exit("%s: %d bytes, but the header says %s" % (sys.argv[1], len(data), n.group(1)))
    with open(sys.argv[2], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()

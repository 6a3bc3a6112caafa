#!/usr/bin/env python3
"""Compares two directories of `sendsim packetdrill --record` outputs.

usage: compare.py MODEL_DIR KERNEL_DIR [--nowin] [--notime]

For each file in both, prints the first packet that differs (TS vals are
ignored; --nowin ignores window fields, --notime times; otherwise a time may
differ by the larger of 10 ms and 12.5 % of the gap since the previous
packet), and the verdicts when they differ; then "same N diff N".
"""
import sys, os, re
def load(p):
    L=[l.rstrip('\n') for l in open(p)]
    pk=[l for l in L if re.match(r'^\d+\.\d+ > ',l)]
    v=[l for l in L if re.match(r'^(PASS|FAIL|SKIP) ',l)]
    return (v[0] if v else L[0] if L else ''), pk
def norm(l):
    t, rest = l.split(' ',1)
    rest = re.sub(r'TS val \d+', 'TS val X', rest)
    if '--nowin' in sys.argv: rest = re.sub(r' win \d+', ' win W', rest)
    return float(t), rest
same=diff=0
mdir, kdir = sys.argv[1], sys.argv[2]
for f in sorted(os.listdir(mdir)):
    if not os.path.exists(os.path.join(kdir, f)): continue
    vm, pm = load(os.path.join(mdir, f)); vk, pk = load(os.path.join(kdir, f))
    a=[norm(x) for x in pm]; b=[norm(x) for x in pk]
    first=None
    prev=0
    for i in range(max(len(a),len(b))):
        if i>=len(a) or i>=len(b): first=(i, a[i] if i<len(a) else None, b[i] if i<len(b) else None); break
        tol=max(0.01, 0.125*(a[i][0]-prev))
        if a[i][1]!=b[i][1] or ('--notime' not in sys.argv and abs(a[i][0]-b[i][0])>tol): first=(i,a[i],b[i]); break
        prev=a[i][0]
    vmv=vm.split(':')[0][:4]; vkv=vk.split(':')[0][:4]
    if first or vmv!=vkv:
        diff+=1
        print(f, vmv, vkv, 'n=%d/%d'%(len(a),len(b)), '#%s'%(first[0] if first else '-'))
        if first: print('   model :', first[1]); print('   kernel:', first[2])
        if vmv!=vkv: print('   vm:', vm[:150]); print('   vk:', vk[:150])
    else: same+=1
print('same', same, 'diff', diff)

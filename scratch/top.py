import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
dt=collections.Counter()
for s,d in zip(p['samples'],p['timeDeltas']): dt[s]+=d
total=sum(dt.values())
self_=collections.Counter()
incl=collections.Counter()
for nid,t in dt.items():
    n=nodes[nid]; cf=n['callFrame']
    self_[(cf['functionName'] or '(anon)')+' '+cf['url'].split('/')[-1]+':'+str(cf['lineNumber'])]+=t
    seen=set(); x=nid
    while x is not None:
        cf=nodes[x]['callFrame']; k=(cf['functionName'] or '(anon)')+' '+cf['url'].split('/')[-1]+':'+str(cf['lineNumber'])
        if k not in seen: incl[k]+=t; seen.add(k)
        x=parent.get(x)
print('total ms',total/1000)
print('--- self')
for k,v in self_.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 30): print(f'{v/total*100:5.1f}% {k}')
print('--- inclusive')
for k,v in incl.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 50): print(f'{v/total*100:5.1f}% {k}')

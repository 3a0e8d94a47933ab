import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
def key(nid):
    cf=nodes[nid]['callFrame']; return (cf['functionName'] or '(anon)')+' '+cf['url'].split('/')[-1]+':'+str(cf['lineNumber'])
def stack(nid):
    out=[]; x=nid
    while x is not None: out.append(key(x)); x=parent.get(x)
    return out
t=p['startTime']; samples=[]
for s,d in zip(p['samples'],p['timeDeltas']):
    t+=d; samples.append((t,s,d))
marker=sys.argv[2]
hits=[t for t,s,d in samples if any(marker in k for k in stack(s))]
lo,hi=min(hits),max(hits)
print('window ms',(hi-lo)/1000, 'marker samples',len(hits))
win=[(t,s,d) for t,s,d in samples if lo<=t<=hi]
total=sum(d for _,_,d in win)
self_=collections.Counter(); incl=collections.Counter()
for t,s,d in win:
    self_[key(s)]+=d
    for k in set(stack(s)): incl[k]+=d
print('--- self'); 
for k,v in self_.most_common(30): print(f'{v/1000:7.1f}ms {k}')
print('--- incl')
for k,v in incl.most_common(60): print(f'{v/1000:7.1f}ms {k}')

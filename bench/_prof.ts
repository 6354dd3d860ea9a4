import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import path from 'node:path';
import { defaultPolicy, refuseApprovals, runAgent } from '../src/agent/index.js';
import { defineTool } from '../src/core/index.js';
import { InProcessEventBus, createRunEmitter } from '../src/events/index.js';
import { CostMeter } from '../src/llm/index.js';
import { RunRecorder } from '../src/runlog/index.js';
import { openStore } from '../src/store/index.js';
import { ToolRegistry } from '../src/tools/index.js';
import { z } from 'zod';
const N=20;
const usage = { inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: undefined, reasoning: undefined } };
function model(): any { let c=0; const d=(o:any)=>{const t=o.prompt.filter((m:any)=>m.role==='tool').length;c++;return t<N?{call:{toolCallId:'c'+c,toolName:'noop',input:'{"value":1}'}}:{text:'done'}};
 return { specificationVersion:'v3', provider:'b', modelId:'z', supportedUrls:{},
 async doStream(o:any){const x=d(o);const parts:any[]=x.call?[{type:'tool-call',...x.call},{type:'finish',finishReason:{unified:'tool-calls',raw:'x'},usage}]:[{type:'text-start',id:'t'},{type:'text-delta',id:'t',delta:x.text},{type:'text-end',id:'t'},{type:'finish',finishReason:{unified:'stop',raw:'x'},usage}];return {stream:new ReadableStream({start(c){for(const p of parts)c.enqueue(p);c.close();}})}} };}
const inputSchema=z.object({value:z.number()});
const registry=new ToolRegistry(); registry.register(defineTool({name:'noop',description:'d',inputSchema,risk:'low',sideEffect:'read',execute:async({value})=>({value})}));
const folder=mkdtempSync(path.join(tmpdir(),'p-')); const store=await openStore({url:`file:${folder}/b.db`});
for (let i=0;i<300;i++){ const bus=new InProcessEventBus(); const id='r'+i; await store.runs.create({id,task:'b',model:'m',conversationId:null}); const rec=new RunRecorder(bus,id,`${folder}/runs/${id}.jsonl`,store); const e=createRunEmitter(bus,id); await runAgent({task:'b',model:{slug:'b:z',provider:'b',model:model()},registry,emitter:e,meter:new CostMeter(id),policy:defaultPolicy,approvals:refuseApprovals,toolContext:{fetch:async()=>{throw 1},utilityModel:undefined} as any,maxIterations:N+1}); await rec.close(); }

// esbuild builds each ES module namespace an import needs (`import * as z`, zod's own ~1,000
// exports among them) as an empty object given one getter per export through `__export`, and the
// getters come in an object literal. V8 gives an object a new hidden class for each property
// added, copying its property list each time, so a namespace of 300 exports cost ~45,000 copies,
// and so did its literal: ~2% of a one-turn run's instructions (callgrind). Here both start in
// V8's dictionary mode instead, where adding a property is a hash insert: the literal by a null
// prototype (as ES namespaces have), the namespace by adding two properties and deleting the
// first (deleting any but the last one added turns an object into a dictionary; deleting the last
// one only steps back to the shape before it). A getter read from a dictionary-mode object costs
// about the same.
const HELPER = '__export=(target,all)=>{for(var name in all)__defProp(target,name,{get:all[name],enumerable:!0})}'
const DICTIONARY_HELPER = '__export=(target,all)=>{target["modloop:a"]=0,target["modloop:b"]=0,delete target["modloop:a"],delete target["modloop:b"];for(var name in all)__defProp(target,name,{get:all[name],enumerable:!0})}'

/** `text` (an esbuild CommonJS bundle, whitespace minified) with its namespaces built in dictionary mode; throws if esbuild's helper reads otherwise. */
export function fastNamespaces(text, file) {
  const calls = text.match(/__export\([\w$]+,\{/g)?.length ?? 0
  if (calls === 0) return text
  if (!text.includes(HELPER)) throw new Error(`${file}: esbuild's __export helper no longer reads as scripts/fast-namespaces.mjs expects; look again at it`)
  return text.replace(HELPER, DICTIONARY_HELPER).replace(/__export\(([\w$]+),\{/g, '__export($1,{__proto__:null,')
}

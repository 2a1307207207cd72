import { sharedJiti } from '../../runtime/loader/jiti.js'

/** Imports a file through the loader's own jiti instance, to inspect what a mod module exports. */
export async function jiti(file: string): Promise<unknown> {
  return (await sharedJiti()).import(file)
}
